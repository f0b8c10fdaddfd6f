import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MFA_EVENTS } from "./mfa-event.js";
import { MFA_STATES, isTerminal } from "./mfa-state.js";
import { guardedTransitions, transitions } from "./mfa-transitions.js";

const DOC = readFileSync(new URL("../../../../../docs/mfa-state-machine.md", import.meta.url), "utf8");

// The body rows of the first table under `## heading`, as arrays of cells without backticks.
function tableRows(heading: string): string[][] {
  const start = DOC.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/mfa-state-machine.md has no "## ${heading}" section`);
  const rest = DOC.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  const lines = (end < 0 ? rest : rest.slice(0, end)).split("\n");
  const first = lines.findIndex((l) => l.startsWith("|"));
  const table: string[] = [];
  for (const line of lines.slice(first)) {
    if (!line.startsWith("|")) break;
    table.push(line);
  }
  return table
    .slice(2)
    .map((line) => line.slice(1, line.endsWith("|") ? -1 : undefined).split("|"))
    .map((cells) => cells.map((c) => c.trim().replaceAll("`", "")));
}

describe("docs/mfa-state-machine.md matches the code", () => {
  it("lists every state with whether it is terminal", () => {
    const rows = tableRows("States").map(([state, terminal]) => [state, terminal]);
    expect(rows).toEqual(MFA_STATES.map((s) => [s, isTerminal(s) ? "yes" : "no"]));
  });

  it("lists every event", () => {
    expect(tableRows("Events").map(([event]) => event)).toEqual([...MFA_EVENTS]);
  });

  it("has the transition table of transitions(), row for row", () => {
    expect(tableRows("Transition table")).toEqual(transitions().map((r) => [r.from, r.event, r.to]));
  });

  it("has the guarded branches of guardedTransitions(), row for row", () => {
    expect(tableRows("Guarded branches")).toEqual(
      guardedTransitions().map((b) => [b.from, b.event, b.when, b.to]),
    );
  });
});
