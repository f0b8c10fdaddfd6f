import { quoteString } from "../authz/expression/expression-printer.js";
import { ZERO_TRUST_ACTIONS } from "../authz/zerotrust/zero-trust-action.js";

/** One value a condition template asks for. */
export interface TemplateParam {
  /** Form field suffix (`start`, `roles`). */
  readonly name: string;
  readonly label: string;
  /** Shown in the empty field. */
  readonly placeholder: string;
  /** Pre-filled value. */
  readonly initial?: string;
}

/** A condition the Policy Center's picker offers: it turns a few typed values into one expression. */
export interface ConditionTemplate {
  /** Stable id (`business-hours`), used in form fields and button values. */
  readonly id: string;
  readonly label: string;
  /** One line: what the condition checks. */
  readonly hint: string;
  readonly params: readonly TemplateParam[];
  /** The expression for `values` (keyed by param name), or a message saying which value is wrong. */
  build(values: Readonly<Record<string, string>>): { expression: string } | { error: string };
}

/** Longest value of one template field. */
export const MAX_TEMPLATE_VALUE_LENGTH = 200;
/** Most items of a list field (roles, permissions, days, actions). */
export const MAX_TEMPLATE_LIST_ITEMS = 20;

// Authority and role names as the platform writes them (`ADMIN`, `ROLE_ADMIN`, `order:read`).
const AUTHORITY_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.:-]{0,99}$/;
const TIME = /^([01][0-9]|2[0-3]):[0-5][0-9]$/;
const DAY_NAMES = ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"] as const;
// Addresses and CIDR ranges: the expression's own check says whether one parses; this keeps quotes out.
const ADDRESS = /^[0-9A-Fa-f.:/]{2,49}$/;

/** Splits a list field on commas and white space, dropping empty items. */
export function listOf(value: string | undefined): string[] {
  return (value ?? "")
    .split(/[\s,]+/)
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function names(value: string | undefined, what: string): string[] | string {
  const list = listOf(value);
  if (list.length === 0) return `give at least one ${what}`;
  if (list.length > MAX_TEMPLATE_LIST_ITEMS) return `give at most ${MAX_TEMPLATE_LIST_ITEMS} ${what}s`;
  const bad = list.find((n) => !AUTHORITY_NAME.test(n));
  if (bad !== undefined) return `a ${what} is letters, digits, '_', '.', ':' or '-' (at most 100)`;
  return [...new Set(list)];
}

const call = (name: string, args: readonly string[]): string =>
  `${name}(${args.map(quoteString).join(", ")})`;

/** A `hasAnyRole(…)` / `hasAnyAuthority(…)` call, `hasRole` / `hasAuthority` for one name. */
export function grantExpression(kind: "role" | "authority", list: readonly string[]): string {
  const one = kind === "role" ? "hasRole" : "hasAuthority";
  const any = kind === "role" ? "hasAnyRole" : "hasAnyAuthority";
  return call(list.length === 1 ? one : any, list);
}

const FULL_DAY_NAMES = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"];

// Three-letter or full English names, any case, as `dayOfWeekIn` takes them; written three-letter.
function daysOf(value: string | undefined): string[] | string {
  const given = listOf(value).map((d) => d.toUpperCase());
  if (given.length === 0) return "give at least one day (MON … SUN)";
  const known = (d: string) => (DAY_NAMES as readonly string[]).includes(d) || FULL_DAY_NAMES.includes(d);
  if (!given.every(known)) return "days are MON … SUN (or MONDAY … SUNDAY), separated by spaces or commas";
  const days = given.map((d) => d.slice(0, 3));
  return DAY_NAMES.filter((d) => days.includes(d));
}

const businessHours: ConditionTemplate = {
  id: "business-hours",
  label: "Business hours",
  hint: "Local time within a daily window on the days given (end exclusive)",
  params: [
    { name: "start", label: "From", placeholder: "09:00", initial: "09:00" },
    { name: "end", label: "Until", placeholder: "18:00", initial: "18:00" },
    { name: "days", label: "Days", placeholder: "MON TUE WED THU FRI", initial: "MON TUE WED THU FRI" },
  ],
  build(v) {
    const start = (v.start ?? "").trim();
    const end = (v.end ?? "").trim();
    if (!TIME.test(start) || !TIME.test(end)) return { error: "times are HH:MM, 00:00 to 23:59" };
    if (start === end) return { error: "the window would be empty (start equals end)" };
    const days = daysOf(v.days);
    if (typeof days === "string") return { error: days };
    const window = call("timeBetween", [start, end]);
    return { expression: days.length === 7 ? window : `${window} and ${call("dayOfWeekIn", days)}` };
  },
};

const ipRange: ConditionTemplate = {
  id: "ip-range",
  label: "IP range",
  hint: "The caller's address is in one of the ranges (IPv4 or IPv6, address or CIDR)",
  params: [{ name: "ranges", label: "Ranges", placeholder: "10.0.0.0/8, 192.168.1.0/24" }],
  build(v) {
    const ranges = listOf(v.ranges);
    if (ranges.length === 0) return { error: "give at least one address or CIDR range" };
    if (ranges.length > MAX_TEMPLATE_LIST_ITEMS)
      return { error: `give at most ${MAX_TEMPLATE_LIST_ITEMS} ranges` };
    if (ranges.some((r) => !ADDRESS.test(r)))
      return { error: "a range is an IP address or CIDR (10.0.0.0/8)" };
    const calls = ranges.map((r) => call("hasIpAddress", [r]));
    return { expression: calls.length === 1 ? calls[0]! : `(${calls.join(" or ")})` };
  },
};

const role: ConditionTemplate = {
  id: "role",
  label: "Role",
  hint: "The caller holds any of the roles (ADMIN and ROLE_ADMIN are one role)",
  params: [{ name: "roles", label: "Roles", placeholder: "ADMIN, MANAGER" }],
  build(v) {
    const list = names(v.roles, "role");
    return typeof list === "string" ? { error: list } : { expression: grantExpression("role", list) };
  },
};

const permission: ConditionTemplate = {
  id: "permission",
  label: "Permission",
  hint: "The caller holds any of the permissions (authorities such as order:read)",
  params: [{ name: "permissions", label: "Permissions", placeholder: "order:read, order:write" }],
  build(v) {
    const list = names(v.permissions, "permission");
    return typeof list === "string" ? { error: list } : { expression: grantExpression("authority", list) };
  },
};

const fixed = (id: string, label: string, hint: string, expression: string): ConditionTemplate => ({
  id,
  label,
  hint,
  params: [],
  build: () => ({ expression }),
});

const aiActionIn: ConditionTemplate = {
  id: "ai-action-in",
  label: "AI: action is one of",
  hint: `The zero-trust action for the caller is one of the listed (${ZERO_TRUST_ACTIONS.join(", ")})`,
  params: [{ name: "actions", label: "Actions", placeholder: "ALLOW, CHALLENGE", initial: "ALLOW" }],
  build(v) {
    const actions = [...new Set(listOf(v.actions).map((a) => a.toUpperCase()))];
    if (actions.length === 0) return { error: "give at least one action" };
    if (actions.some((a) => !(ZERO_TRUST_ACTIONS as readonly string[]).includes(a))) {
      return { error: `actions are ${ZERO_TRUST_ACTIONS.join(", ")}` };
    }
    return { expression: `#ai.${call("hasActionIn", actions)}` };
  },
};

/**
 * The picker's catalog, in the order shown: business hours, IP range, role, permission,
 * authenticated, and the AI (zero-trust) conditions `#ai.*`. The language has no "second factor
 * proved recently" function (step-up is a static rule, `recentFactor`), so no template offers one.
 */
export const CONDITION_TEMPLATES: readonly ConditionTemplate[] = [
  businessHours,
  ipRange,
  role,
  permission,
  fixed("authenticated", "Authenticated", "The caller is signed in (not anonymous)", "isAuthenticated()"),
  fixed("ai-allowed", "AI: allowed", "The zero-trust action for the caller is ALLOW", "#ai.isAllowed()"),
  fixed(
    "ai-not-blocked",
    "AI: not blocked",
    "The zero-trust action is anything but BLOCK",
    "!#ai.isBlocked()",
  ),
  aiActionIn,
];

/** The template of `id`, if the catalog has one. */
export function findConditionTemplate(id: string): ConditionTemplate | undefined {
  return CONDITION_TEMPLATES.find((t) => t.id === id);
}
