import { z } from "zod";
import { defineProperty, prop } from "../kernel/properties.js";
import { COMBINING_ALGORITHMS, type CombiningAlgorithm } from "./pdp/combining-algorithm.js";

/** How several matching URL policies combine. */
export const POLICY_COMBINING_ALGORITHM = defineProperty<CombiningAlgorithm>({
  key: "platform.policy.combining-algorithm",
  schema: z.enum(COMBINING_ALGORITHMS as [CombiningAlgorithm, ...CombiningAlgorithm[]]),
  default: "FIRST_APPLICABLE",
  description:
    "How URL policies combine: FIRST_APPLICABLE (the first policy whose target matches decides, DENY as " +
    "!(condition)), DENY_OVERRIDES, PERMIT_OVERRIDES, DENY_UNLESS_PERMIT or PERMIT_UNLESS_DENY (XACML: a " +
    "policy whose condition does not hold is NotApplicable).",
});

/** What a request no URL policy matches gets: allowed by default; DENY is an opt-in (docs/decisions/authorization.md). */
export const POLICY_NO_MATCH_DECISION = defineProperty<"ALLOW" | "DENY">({
  key: "platform.policy.no-match-decision",
  schema: z.enum(["ALLOW", "DENY"]),
  default: "ALLOW",
  description:
    "Decision for a request that reaches the dynamic manager and matches no URL policy. ALLOW (default) " +
    "lets it through; DENY makes the dynamic manager deny by default. DENY_UNLESS_PERMIT " +
    "and PERMIT_UNLESS_DENY ignore it.",
});

/** The zone of time-window and day-of-week conditions. */
export const POLICY_TIME_ZONE = defineProperty<string>({
  key: "platform.policy.time-zone",
  schema: prop
    .string()
    .refine(
      (z) => z === "local" || isTimeZone(z),
      "must be 'local' or an IANA time zone such as UTC or Europe/Berlin",
    ),
  default: "local",
  description:
    "IANA time zone in which timeBetween(), dayOfWeekIn() and dateBetween() read the clock; 'local' is the " +
    "server's zone.",
});

/** How often an instance checks the policy store for changes made by other instances. */
export const POLICY_REFRESH_INTERVAL = defineProperty<number>({
  key: "platform.policy.refresh-interval",
  schema: prop
    .duration()
    .refine((ms) => ms === 0 || (ms >= 100 && ms <= 60_000), "must be 0 (never) or between 100ms and 60s"),
  default: 2_000,
  description:
    "How often this instance reads the policy store's change count and reloads when another instance " +
    "changed policies (0: never, for a single instance). Changes made here reload at once.",
});

/**
 * Where the REST reference page is served (the spec's property): URL resources link to
 * `<path>#<route name>`, one anchor per route. Declared once, here; the HTTP binding serves the page.
 */
export const REST_DOCS_PATH = defineProperty<string>({
  key: "platform.iam.admin.rest-docs-path",
  schema: prop.string().refine((path) => /^\/[A-Za-z0-9._~/-]*$/.test(path) && !path.includes("//"), {
    message: "must be an absolute literal path such as /docs/index.html",
  }),
  default: "/docs/index.html",
  description:
    "Path of the REST reference page (one anchor per route name); URL resources' apiDocsUrl is <path>#<route name>.",
});

/** Which namer proposes managed resources' names after a scan. */
export const RESOURCES_NAMER = defineProperty<"offline" | "openai">({
  key: "platform.authz.resources.namer",
  schema: z.enum(["offline", "openai"]),
  default: "offline",
  description:
    "Who names scanned resources: offline (built-in rules from the method and path) or openai (the " +
    "decision model's OpenAI-compatible endpoint, platform.security.decision.model.*; needs the decisions plugin).",
});

/** Every property of the PDP and of resource scanning, for the plugin's list. */
export const AUTHZ_PROPERTIES = [
  POLICY_COMBINING_ALGORITHM,
  POLICY_NO_MATCH_DECISION,
  POLICY_TIME_ZONE,
  POLICY_REFRESH_INTERVAL,
  REST_DOCS_PATH,
  RESOURCES_NAMER,
] as const;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone a `platform.policy.time-zone` value names (`local` → the server's zone). */
export function resolveTimeZone(value: string): string {
  return value === "local" ? Intl.DateTimeFormat().resolvedOptions().timeZone : value;
}
