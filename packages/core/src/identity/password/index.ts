export { CountingPasswordHasher } from "./counting-password-hasher.js";
export { PasswordHasher } from "./password-hasher.js";
export {
  PASSWORD_HASHER_PROPERTIES,
  PASSWORD_SCRYPT_BLOCK_SIZE,
  PASSWORD_SCRYPT_COST_LOG2,
  PASSWORD_SCRYPT_PARALLELIZATION,
  scryptOptionsFromProperties,
} from "./password-hasher.properties.js";
export {
  SCRYPT_LIMITS,
  formatScryptHash,
  parseScryptHash,
  scryptMaxmem,
  scryptParametersProblem,
  type ScryptEncodedHash,
  type ScryptParameters,
} from "./scrypt-encoded-hash.js";
export {
  MAX_PASSWORD_LENGTH,
  SCRYPT_DEFAULTS,
  ScryptPasswordHasher,
  type ScryptPasswordHasherOptions,
} from "./scrypt-password-hasher.js";
