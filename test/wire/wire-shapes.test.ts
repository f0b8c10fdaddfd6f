import type { TokenPairAnswer, UserJson } from "@keyward/core/wire";
import { describe, expect, it } from "vitest";
import type {
  PolicyJson,
  ZeroTrustActionJson,
  ZeroTrustClearedAnswer,
} from "../../packages/core/src/web/wire/admin-messages.js";
import type { OttGenerateAnswer } from "../../packages/core/src/web/wire/ott-messages.js";
import { readAnswers } from "../golden/answers-file.js";

/** Every key of T, listed: the compiler refuses a list that misses or invents one. */
type AllKeys<T, K extends readonly (keyof T)[]> = Exclude<keyof T, K[number]> extends never ? K : never;
function keysOf<T>() {
  return <const K extends readonly (keyof T)[]>(keys: AllKeys<T, K>): readonly string[] =>
    keys as readonly string[];
}

const SHAPES: { name: string; keys: readonly string[]; optional?: readonly string[]; picks: Pick }[] = [];
type Pick = { group: string; method: string; path: RegExp; status: number; list?: boolean };

/** `optional`: keys of `keys` an answer may leave out (sent only when there is a value). */
function shape(name: string, keys: readonly string[], picks: Pick[], optional: readonly string[] = []): void {
  for (const pick of picks) SHAPES.push({ name, keys, optional, picks: pick });
}

shape(
  "TokenPairAnswer",
  keysOf<TokenPairAnswer>()([
    "success",
    "accessToken",
    "refreshToken",
    "tokenType",
    "expiresIn",
    "refreshExpiresIn",
  ]),
  [{ group: "rest-and-tokens", method: "POST", path: /^\/api\/token\/refresh$/, status: 200 }],
);
shape("OttGenerateAnswer", keysOf<OttGenerateAnswer>()(["success", "message", "submitPageUrl"]), [
  { group: "ott", method: "POST", path: /^\/ott\/generate$/, status: 200 },
]);
shape(
  "UserJson",
  keysOf<UserJson>()([
    "id",
    "username",
    "authorities",
    "enabled",
    "locked",
    "hasPassword",
    "email",
    "version",
    "createdAt",
  ]),
  [
    { group: "users-admin", method: "GET", path: /^\/admin\/api\/users$/, status: 200, list: true },
    { group: "users-admin", method: "POST", path: /^\/admin\/api\/users$/, status: 201 },
    {
      group: "users-admin",
      method: "POST",
      path: /^\/admin\/api\/users\/[^/]+\/(disable|enable|unlock)$/,
      status: 200,
    },
  ],
  ["email"],
);
shape(
  "PolicyJson",
  keysOf<PolicyJson>()([
    "id",
    "name",
    "description",
    "effect",
    "priority",
    "targets",
    "rules",
    "source",
    "approvalStatus",
    "isActive",
    "confidenceScore",
    "aiModel",
    "createdSeq",
    "createdAt",
    "updatedAt",
    "version",
  ]),
  [
    { group: "policies-admin", method: "GET", path: /^\/admin\/api\/policies$/, status: 200, list: true },
    { group: "policies-admin", method: "POST", path: /^\/admin\/api\/policies$/, status: 201 },
    { group: "policies-admin", method: "PUT", path: /^\/admin\/api\/policies\/[^/]+$/, status: 200 },
  ],
);
shape(
  "ZeroTrustActionJson",
  keysOf<ZeroTrustActionJson>()(["subject", "action", "reason", "source", "at", "expiresAt", "version"]),
  [
    {
      group: "zero-trust-admin",
      method: "PUT",
      path: /^\/admin\/api\/zerotrust\/actions\/[^/]+$/,
      status: 200,
    },
  ],
);
shape("ZeroTrustClearedAnswer", keysOf<ZeroTrustClearedAnswer>()(["subject", "cleared"]), [
  {
    group: "zero-trust-admin",
    method: "DELETE",
    path: /^\/admin\/api\/zerotrust\/actions\/[^/]+$/,
    status: 200,
  },
]);

/** The recorded bodies of one kind of answer. */
function recordedBodies(pick: Pick): unknown[] {
  const group = readAnswers(pick.group);
  if (!group) throw new Error(`no golden answers for ${pick.group}`);
  const bodies: unknown[] = [];
  for (const scenario of group.scenarios) {
    for (const step of scenario.steps) {
      const { request, answer } = step as unknown as {
        request?: { method: string; path: string };
        answer?: { status: number; body: unknown };
      };
      if (!request || !answer) continue;
      if (request.method !== pick.method || answer.status !== pick.status) continue;
      if (!pick.path.test(request.path.split("?")[0]!)) continue;
      bodies.push(answer.body);
    }
  }
  return bodies;
}

describe("the wire types name exactly the fields the server sends (held to the golden answers)", () => {
  it.each(SHAPES.map((s) => [s.name, `${s.picks.method} ${s.picks.path.source}`, s] as const))(
    "%s: %s",
    (_, __, { keys, optional = [], picks }) => {
      const bodies = recordedBodies(picks).flatMap((body) => (picks.list ? (body as unknown[]) : [body]));
      expect(bodies.length).toBeGreaterThan(0);
      const required = keys.filter((k) => !optional.includes(k)).sort();
      for (const body of bodies) {
        expect(
          Object.keys(body as object)
            .filter((k) => !optional.includes(k))
            .sort(),
        ).toEqual(required);
        expect(Object.keys(body as object).every((k) => keys.includes(k))).toBe(true);
      }
    },
  );
});
