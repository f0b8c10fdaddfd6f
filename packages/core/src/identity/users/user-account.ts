/**
 * A stored user: the identity every authenticator resolves. `passwordHash` is an encoded
 * PasswordHasher string (undefined for passwordless accounts, e.g. passkey-only users).
 */
export interface UserAccount {
  /** Stable, repository-assigned identifier (from the IdGenerator); never reused. */
  id: string;
  /** The display form: NFKC-normalised and trimmed, case preserved. Unique case-insensitively. */
  username: string;
  /** Encoded password hash (`$scrypt$...`), or undefined when the account has no password. */
  passwordHash: string | undefined;
  /** Granted authorities, e.g. `ROLE_USER`, `ROLE_ADMIN`. */
  authorities: readonly string[];
  /** A disabled account cannot sign in (ACCOUNT_DISABLED). */
  enabled: boolean;
  /** A locked account cannot sign in (ACCOUNT_LOCKED). */
  locked: boolean;
  /**
   * Changes with every change to the account's standing (disabled, password set, authorities changed):
   * a sign-in carries the stamp it saw, and stops standing when the account's moves (AccountStanding).
   * Absent on accounts never changed so; a UserRepository stores it as given.
   */
  securityStamp?: string | undefined;
  /**
   * The account's e-mail address, when it has one: messages for the account (one-time tokens, MFA
   * codes, reset links) go to it instead of the username. Unique case-insensitively when set; set by
   * an administrator or by the host's repository, so trusted as given.
   */
  email?: string | undefined;
  /** Compare-and-set version: 1 after create, +1 on every successful update. */
  version: number;
  /** Creation time, epoch milliseconds from the Clock. */
  createdAt: number;
}

/** What a caller supplies to create an account; the repository assigns id, version and createdAt. */
export interface NewUserAccount {
  /** Required; stored NFKC-normalised and trimmed. */
  username: string;
  /** Encoded hash; omit for passwordless accounts. */
  passwordHash?: string | undefined;
  /** Defaults to none. */
  authorities?: readonly string[];
  /** Defaults to true. */
  enabled?: boolean;
  /** Defaults to false. */
  locked?: boolean;
  /** The account's e-mail address (see UserAccount.email); defaults to none. */
  email?: string | undefined;
}
