import type { Policy } from "../../../packages/core/src/authz/policy/policy.js";
import type { BenchRequest } from "./bench-types.js";
import type { SeededRandom } from "./seeded-random.js";
import { SUB_RESOURCES, unknownResourceName } from "./workload-policies.js";
import type { BenchUser } from "./workload-users.js";

/** The share of requests aimed at a policy target; the rest aim beside them (tuned for ~70% matched). */
export const TARGETED_SHARE = 0.66;
/** The share of anonymous requests. */
export const ANONYMOUS_SHARE = 0.05;

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** `count` requests: 5% anonymous, ~70% at a concrete path of some policy target, the rest elsewhere. */
export function generateRequests(
  count: number,
  policies: readonly Policy[],
  resources: readonly string[],
  users: readonly BenchUser[],
  rng: SeededRandom,
): BenchRequest[] {
  const urlTargets = policies.flatMap((p) => p.targets.filter((t) => t.targetType === "URL"));
  const out: BenchRequest[] = [];
  for (let i = 0; i < count; i++) {
    const authentication = rng.chance(ANONYMOUS_SHARE) ? undefined : rng.pick(users).authentication;
    let method: string;
    let path: string;
    if (rng.chance(TARGETED_SHARE) && urlTargets.length > 0) {
      const target = rng.pick(urlTargets);
      path = concretePath(target.targetIdentifier, rng);
      method = target.httpMethod === "ANY" ? rng.pick(METHODS) : target.httpMethod;
    } else {
      [method, path] = elsewhere(resources, rng);
    }
    out.push(Object.freeze({ authentication, method, path, remoteAddress: remoteAddress(rng) }));
  }
  return out;
}

/** A concrete path the pattern was written for: ids for `{id}` and `*`, 0-2 segments for `**`. */
export function concretePath(pattern: string, rng: SeededRandom): string {
  return pattern
    .split("/")
    .map((segment) => {
      if (segment === "**") return Array.from({ length: rng.int(0, 2) }, () => pathToken(rng)).join("/");
      return segment
        .replace(/\{[^}]*\}/g, () => id(rng))
        .replace(/\*+/g, () => id(rng))
        .replace(/\?/g, () => String(rng.int(1, 3)));
    })
    .join("/")
    .replace(/\/{2,}/g, "/")
    .replace(/(.)\/$/, "$1");
}

function id(rng: SeededRandom): string {
  // Mostly numeric ids; some opaque ones, which `{id:\d+}` patterns reject.
  return rng.chance(0.9) ? String(rng.int(1, 99_999)) : `c${rng.int(0, 0xffffff).toString(16)}`;
}

function pathToken(rng: SeededRandom): string {
  return rng.chance(0.5) ? id(rng) : rng.pick(SUB_RESOURCES);
}

/** A request beside the policies: unknown resources, static files, another API version, odd sub-paths. */
function elsewhere(resources: readonly string[], rng: SeededRandom): [string, string] {
  const method = rng.weighted<string>([
    ["GET", 60],
    ["POST", 15],
    ["PUT", 10],
    ["PATCH", 5],
    ["DELETE", 10],
  ]);
  const res = rng.pick(resources);
  return rng.weighted<() => [string, string]>([
    [() => [method, `/api/v1/${unknownResourceName(rng)}${rng.chance(0.5) ? `/${id(rng)}` : ""}`], 40],
    [
      () => [
        "GET",
        rng.pick([
          "/",
          "/health",
          "/favicon.ico",
          `/assets/app-${rng.int(1, 999)}.js`,
          "/login",
          "/docs/index.html",
        ]),
      ],
      20,
    ],
    [() => [method, `/api/v2/${res}/${id(rng)}`], 15],
    [() => [rng.pick(["HEAD", "OPTIONS", "PATCH"]), `/api/v1/${res}`], 10],
    [() => [method, `/api/v1/${res}/${id(rng)}/${pathToken(rng)}/${pathToken(rng)}`], 15],
  ])();
}

/** Mostly private IPv4, some public, some IPv4-mapped IPv6, some plain IPv6. */
function remoteAddress(rng: SeededRandom): string {
  const octet = (): number => rng.int(0, 255);
  return rng.weighted<() => string>([
    [() => `10.${octet()}.${octet()}.${rng.int(1, 254)}`, 45],
    [() => `192.168.${octet()}.${rng.int(1, 254)}`, 30],
    [() => `203.0.113.${rng.int(1, 254)}`, 10],
    [() => `::ffff:10.${octet()}.${octet()}.${rng.int(1, 254)}`, 8],
    [() => `2001:db8::${rng.int(1, 0xffff).toString(16)}`, 7],
  ])();
}
