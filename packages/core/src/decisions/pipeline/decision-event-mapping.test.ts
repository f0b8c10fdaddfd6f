import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { MFA_ERROR_EVENT_CODES } from "../../mfa/events/mfa-state-machine-events.js";
import { TERMINAL_MFA_STATES } from "../../mfa/state/mfa-state.js";
import { ANY_OTHER, DECISION_EVENT_MAPPING, decisionEventKindOf } from "./decision-event-mapping.js";

const page = readFileSync(
  fileURLToPath(new URL("../../../../../docs/security-decisions.md", import.meta.url)),
  "utf8",
);

/** The mapping rows of the page: `| \`signal\` | value | decision event | why |`. */
function documentedRows() {
  return [
    ...page.matchAll(/^\| `((?:identity|mfa|zerotrust)\.[A-Za-z.]+)` \| (.+?) \| (.+?) \| (.+) \|$/gm),
  ].map(([, signal, value, kind, why]) => ({ signal, value, kind, why }));
}

describe("DECISION_EVENT_MAPPING", () => {
  it("is the table docs/security-decisions.md prints, row for row", () => {
    const rows = DECISION_EVENT_MAPPING;
    const value = (signal: string, match: string) =>
      match !== ANY_OTHER
        ? `\`${match}\``
        : rows.filter((r) => r.signal === signal).length > 1
          ? "any other"
          : "any";
    expect(documentedRows()).toEqual(
      rows.map((r) => ({
        signal: r.signal,
        value: value(r.signal, r.match),
        kind: r.kind === undefined ? "none" : `\`${r.kind}\``,
        why: r.why,
      })),
    );
  });

  it("names every code the MFA runtime publishes and every state that ends a flow, once", () => {
    const keys = DECISION_EVENT_MAPPING.map((r) => `${r.signal} ${r.match}`);
    expect(new Set(keys).size).toBe(keys.length);
    const errorCodes = DECISION_EVENT_MAPPING.filter((r) => r.signal === "mfa.ErrorEvent").map(
      (r) => r.match,
    );
    expect(errorCodes.filter((m) => m !== ANY_OTHER).sort()).toEqual([...MFA_ERROR_EVENT_CODES].sort());
    const states = DECISION_EVENT_MAPPING.filter((r) => r.signal === "mfa.StateChangeEvent").map(
      (r) => r.match,
    );
    expect(states.filter((m) => m !== ANY_OTHER).sort()).toEqual([...TERMINAL_MFA_STATES].sort());
  });

  it("makes a lockout only of the lockout, never of a refused send", () => {
    expect(decisionEventKindOf("mfa.ErrorEvent", "ACCOUNT_LOCKED")).toBe("MFA_LOCKOUT");
    expect(decisionEventKindOf("mfa.ErrorEvent", "TOO_MANY_ATTEMPTS")).toBeUndefined();
    expect(decisionEventKindOf("mfa.ErrorEvent", "MFA_FACTOR_VERIFICATION_FAILED")).toBe("MFA_FAILURE");
    expect(decisionEventKindOf("mfa.ErrorEvent", 42)).toBeUndefined();
    expect(decisionEventKindOf("mfa.StateChangeEvent", "MFA_ACCOUNT_LOCKED")).toBeUndefined();
    const lockouts = DECISION_EVENT_MAPPING.filter((r) => r.kind === "MFA_LOCKOUT");
    expect(lockouts.map((r) => `${r.signal} ${r.match}`)).toEqual(["mfa.ErrorEvent ACCOUNT_LOCKED"]);
  });
});
