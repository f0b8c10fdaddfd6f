import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { BudgetProfile } from "../../bundles/budget-profile.js";
import { V20_BUNDLE } from "../../bundles/v20-bundle.js";
import { parsePromptInput, type PromptInput } from "../../input/prompt-input.js";
import { DEFAULT_BUNDLE_ROOT } from "../../manifest/bundle-root.js";
import { countTokens } from "../../tokens/token-counter.js";
import { renderV20User } from "./render-v20.js";
import { dictionaryEntries, V20_DICTIONARY } from "./v20-dictionary.js";

const golden = (name: string) =>
  parsePromptInput(
    JSON.parse(readFileSync(join(DEFAULT_BUNDLE_ROOT, "golden", "inputs", `${name}.json`), "utf8")),
  );
const [L1, L2] = V20_BUNDLE.budgets as [BudgetProfile, BudgetProfile];
const render = (input: PromptInput, profile: BudgetProfile = L2) =>
  renderV20User(input, profile, V20_DICTIONARY);
const GOLDEN = [
  "internal-read",
  "external-admin-delete",
  "every-fact-missing",
  "long-history",
  "partly-known",
];
const blockOf = (text: string, name: string) =>
  text
    .split("\n\n")
    .find((b) => b.startsWith(`[${name}]`))!
    .split("\n");

describe("the v20 dictionary", () => {
  it("has the REQUEST block first, with subject, time, roles, permissions, action, target, size, class, network, device", () => {
    const request = V20_DICTIONARY.blocks[0]!;
    expect(request.name).toBe("REQUEST");
    expect(request.entries.map((e) => e.name)).toEqual([
      "subject",
      "time",
      "roles",
      "permissions",
      "action",
      "target",
      "size",
      "class",
      "network",
      "device",
    ]);
  });

  it("gives every block a cap that holds all its entries, and every entry a unique key", () => {
    for (const block of V20_DICTIONARY.blocks) expect(block.entries.length).toBeLessThanOrEqual(block.cap);
    const keys = dictionaryEntries(V20_DICTIONARY).map((e) => e.key);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe.each(GOLDEN)("the v20 render of %s", (name) => {
  const input = golden(name);
  const r = render(input);

  it("has the blocks in dictionary order, PAST RECORDS, then one UNKNOWN line ending the text", () => {
    const headers = r.user.split("\n").filter((l) => /^\[.+\]$/.test(l));
    expect(headers).toEqual([...V20_DICTIONARY.blocks.map((b) => `[${b.name}]`), "[PAST RECORDS]"]);
    expect(r.user.match(/^UNKNOWN: .+\n$/m)).not.toBeNull();
    expect(r.user.endsWith("\n") && !r.user.endsWith("\n\n") && !r.user.includes("\r")).toBe(true);
    expect(r.user.split("\n").at(-2)!.startsWith("UNKNOWN: ")).toBe(true);
  });

  it("numbers each block's lines from 1, within its cap, with only that block's entries in order", () => {
    for (const block of V20_DICTIONARY.blocks) {
      const lines = blockOf(r.user, block.name).slice(1);
      expect(lines.length).toBeLessThanOrEqual(block.cap);
      const names = lines.map((line, i) => {
        expect(line.startsWith(`${i + 1}. `)).toBe(true);
        return line.slice(line.indexOf(" ") + 1, line.indexOf(":"));
      });
      const order = block.entries.map((e) => e.name);
      expect(names.map((n) => order.indexOf(n))).toEqual(
        [...names.map((n) => order.indexOf(n))].sort((a, b) => a - b),
      );
      expect(names.every((n) => order.includes(n))).toBe(true);
    }
  });

  it("puts fact IDs F1, F2, ... on the drawn facts in drawn order, and only there", () => {
    const ids = [...r.user.matchAll(/ \{(F\d+)\}$/gm)].map((m) => m[1]);
    expect(ids).toEqual(r.facts.map((f) => f.id));
    expect(ids).toEqual(ids.map((_, i) => `F${i + 1}`));
  });

  it("names on the UNKNOWN line no fact that is drawn with a value", () => {
    const drawn = new Set(r.facts.map((f) => f.key));
    for (const u of r.unknown) expect(drawn.has(u.key)).toBe(false);
    const line = r.user.split("\n").at(-2)!;
    expect(line).toBe(
      `UNKNOWN: ${r.unknown.length ? r.unknown.map((u) => `${u.key} (${u.kind})`).join("; ") : "none"}`,
    );
  });

  it("draws past records with a state line and twelve fields, same target first, then latest first", () => {
    const block = blockOf(r.user, "PAST RECORDS");
    const records = block.slice(2);
    expect(block[1]).toBe(`state: ${records.length} drawn of ${input.pastRecords.length}`);
    const rows = records.map((line) =>
      line
        .replace(/^\d+\. /, "")
        .replace(/ \{F\d+\}$/, "")
        .split(" | "),
    );
    for (const row of rows) expect(row).toHaveLength(12);
    const same = rows.map((row) => row[4] === input.request.target);
    expect(same).toEqual([...same].sort((a, b) => Number(b) - Number(a)));
    for (const group of [true, false]) {
      const times = rows.filter((_, i) => same[i] === group).map((row) => row[1]!);
      expect(times).toEqual([...times].sort().reverse());
    }
  });

  it("renders the same bytes on every run", () => {
    expect(render(structuredClone(input)).user).toBe(r.user);
  });
});

describe("missing values follow each entry's note", () => {
  it("an input with every fact missing: LINE entries say their missing text, every unknown fact is named with its kind", () => {
    const r = render(parsePromptInput({ eventId: "evt-empty" }));
    expect(r.facts).toEqual([]);
    expect(blockOf(r.user, "REQUEST")).toContain("5. action: not established");
    expect(blockOf(r.user, "REQUEST")).not.toContain("size");
    expect(blockOf(r.user, "IDENTITY")).toEqual(["[IDENTITY]"]);
    expect(r.unknown).toContainEqual({ key: "request.class", kind: "NOT_DERIVABLE" });
    expect(r.unknown).toContainEqual({ key: "identity.mfa-enrolled", kind: "NOT_PROVIDED" });
    expect(r.unknown.map((u) => u.key)).not.toContain("request.size");
    expect(blockOf(r.user, "PAST RECORDS")).toEqual(["[PAST RECORDS]", "state: 0 drawn of 0"]);
  });

  it("OMIT_UNLESS_MARKED: left out, unless the caller marked it; then its own line and UNAVAILABLE", () => {
    const plain = render(parsePromptInput({ eventId: "e" }));
    const marked = render(parsePromptInput({ eventId: "e", markedMissing: ["request.size"] }));
    expect(plain.user).not.toContain("size:");
    expect(blockOf(marked.user, "REQUEST")).toContain("7. size: not provided");
    expect(marked.unknown).toContainEqual({ key: "request.size", kind: "UNAVAILABLE" });
  });

  it("a marked fact the input does carry is drawn, not named", () => {
    const r = render(
      parsePromptInput({ eventId: "e", request: { subject: "x" }, markedMissing: ["request.subject"] }),
    );
    expect(r.facts[0]).toEqual({ id: "F1", key: "request.subject", value: "x" });
    expect(r.unknown.map((u) => u.key)).not.toContain("request.subject");
  });

  it("a classifier without a matching term reports UNCLASSIFIED", () => {
    const r = render(golden("partly-known"));
    expect(r.unknown).toEqual(
      expect.arrayContaining([
        { key: "request.class", kind: "UNCLASSIFIED" },
        { key: "request.network", kind: "UNCLASSIFIED" },
        { key: "request.action", kind: "UNCLASSIFIED" },
      ]),
    );
  });

  it("no input text can forge a fact ID, a record field or a line", () => {
    const r = render(golden("partly-known"));
    expect(r.user).toContain("1. department: Line break (F1) / pipe {F6}");
  });
});

describe("the v20 budget", () => {
  it("drops past records from the end of their order until the prompt fits, and the state line counts what stayed", () => {
    const input = golden("long-history");
    const full = render(input, L2);
    const tight = render(input, { ...L1, userTokens: full.userTokens - 60 });
    expect(tight.omitted.length).toBeGreaterThan(0);
    expect(tight.userTokens).toBeLessThanOrEqual(full.userTokens - 60);
    const drawn = blockOf(tight.user, "PAST RECORDS").length - 2;
    expect(blockOf(tight.user, "PAST RECORDS")[1]).toBe(
      `state: ${drawn} drawn of ${input.pastRecords.length}`,
    );
    expect(tight.overBudget).toBe(false);
  });

  it("counts the tokens of a text that fits by its bytes only when asked, and counts them exactly", () => {
    const input = golden("long-history");
    const r = render(input, { ...L2, userTokens: 1_000_000 });
    expect(r.overBudget).toBe(false);
    expect(r.omitted).toEqual([]);
    expect(r.userTokens).toBe(countTokens(r.user));
    expect(r.userTokens).toBeLessThan(Buffer.byteLength(r.user, "utf8"));
  });

  it("cuts nothing but past records: with no budget left the rest stays and the render says over budget", () => {
    const r = render(golden("internal-read"), { ...L1, userTokens: 5 });
    expect(blockOf(r.user, "REQUEST")).toHaveLength(11);
    expect(r.overBudget).toBe(true);
  });
});
