import type { Authentication } from "./authentication.js";

/** Test fixture: a password sign-in of `username` holding `authorities`, at time 0. */
export function user(
  userId: string,
  username: string,
  authorities: string[] = ["ROLE_USER"],
): Authentication {
  return {
    userId,
    username,
    authorities,
    method: "form",
    authenticatedAt: 0,
    factors: [{ type: "pwd", at: 0 }],
  };
}
