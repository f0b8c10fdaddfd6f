export { AccountUnlockHook } from "./account-unlock-hook.js";
export { PasswordResetFilter, type PasswordResetFilterOptions } from "./password-reset-filter.js";
export {
  MAX_NEW_PASSWORD_LENGTH,
  MAX_NEW_USERNAME_LENGTH,
  MIN_NEW_PASSWORD_LENGTH,
} from "./account-rules.js";
export {
  PASSWORD_RESET_PATH,
  PASSWORD_RESET_TOKEN_TTL_MS,
  PasswordResetTokenService,
} from "./password-reset-tokens.js";
export { registerUserAdminDefaults } from "./register-user-admin-defaults.js";
export { userAdminApi } from "./user-admin-api.js";
export { USER_ADMIN_BASE_PATH, UserAdminFilter } from "./user-admin-filter.js";
export {
  type NewUserRequest,
  UserAdministrationService,
  type UserAdministrationServiceOptions,
  type UserView,
  userView,
} from "./user-administration-service.js";
