// What an administrator's client (the `platform` CLI, an admin page) and the admin APIs exchange:
// users (`/admin/api/users`), policies (`/admin/api/policies`) and zero-trust actions
// (`/admin/api/zerotrust/actions`). Times are epoch milliseconds.

/** An account as `/admin/api/users` shows it: never the password hash, only whether there is one. */
export type UserJson = {
  id: string;
  username: string;
  authorities: readonly string[];
  enabled: boolean;
  locked: boolean;
  hasPassword: boolean;
  /** The account's e-mail address, when it has one. */
  email?: string;
  version: number;
  createdAt: number;
};

/** `POST /admin/api/users` body. Omit `password` for an account that signs in by passkey or link only. */
export type NewUserBody = {
  username: string;
  password?: string;
  authorities?: readonly string[];
  enabled?: boolean;
  /** The account's e-mail address; omit for none. */
  email?: string;
};

/** One target of a policy: a URL pattern with an HTTP method, or a method identifier. */
export type PolicyTargetJson = {
  targetType: "URL" | "METHOD";
  targetIdentifier: string;
  httpMethod: "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "ANY";
  targetOrder: number;
  sourceType: "RESOURCE" | "MANUAL";
};

/** One named group of conditions (policy expressions). */
export type PolicyRuleJson = {
  name: string;
  conditions: readonly { expression: string }[];
};

/** A policy as `/admin/api/policies` shows it. */
export type PolicyJson = {
  id: string;
  name: string;
  description: string;
  effect: "ALLOW" | "DENY";
  priority: number;
  targets: readonly PolicyTargetJson[];
  rules: readonly PolicyRuleJson[];
  source: "MANUAL" | "AI_GENERATED" | "AI_EVOLVED" | "IMPORTED";
  approvalStatus: "NOT_REQUIRED" | "PENDING" | "APPROVED" | "REJECTED";
  isActive: boolean;
  confidenceScore: number | null;
  aiModel: string | null;
  createdSeq: number;
  createdAt: number;
  updatedAt: number;
  version: number;
};

/** A zero-trust verdict as `/admin/api/zerotrust/actions` shows it. */
export type ZeroTrustActionJson = {
  /** `user:<id>` or `session:<handle>`. */
  subject: string;
  action: "ALLOW" | "BLOCK" | "CHALLENGE" | "ESCALATE" | "PENDING_ANALYSIS";
  reason: string | null;
  source: string;
  at: number;
  expiresAt: number;
  version: number;
};

/** `PUT /admin/api/zerotrust/actions/{subject}` body. */
export type ZeroTrustActionBody = {
  action: ZeroTrustActionJson["action"];
  reason?: string;
  ttlSeconds?: number;
};

/** The answer of `DELETE /admin/api/zerotrust/actions/{subject}`. */
export type ZeroTrustClearedAnswer = {
  subject: string;
  cleared: boolean;
};
