import { describe, expect, it } from "vitest";
import type { PolicyRevision } from "../authz/policy/policy-revision-repository.js";
import { renderPolicyHistory } from "./policy-history-view.js";

const revision = (extra: Partial<PolicyRevision>): PolicyRevision => ({
  id: "r1",
  policyId: "p1",
  policyVersion: 1,
  action: "CREATED",
  actor: "root",
  at: Date.UTC(2026, 10, 27, 9, 30),
  changedFields: ["name", "rules"],
  snapshot: {} as PolicyRevision["snapshot"],
  ...extra,
});

describe("renderPolicyHistory", () => {
  it("renders one row per revision: version, action, actor, ISO time, changed fields, reason", () => {
    const html = renderPolicyHistory([
      revision({ policyVersion: 2, action: "REJECTED", changedFields: [], reason: "too broad" }),
      revision({}),
    ]);
    expect(html).toContain("<caption>History of changes</caption>");
    const rows = html.match(/<tr class="revision[\s\S]*?<\/tr>/g) ?? [];
    expect(rows).toEqual([
      '<tr class="revision rejected"><td>2</td><td>Rejected</td><td>root</td><td><time datetime="2026-11-27T09:30:00.000Z">2026-11-27T09:30:00.000Z</time></td><td>-</td><td>too broad</td></tr>',
      '<tr class="revision created"><td>1</td><td>Created</td><td>root</td><td><time datetime="2026-11-27T09:30:00.000Z">2026-11-27T09:30:00.000Z</time></td><td>name, rules</td><td>-</td></tr>',
    ]);
  });

  it("escapes every value: an actor or a reason holding markup renders as text", () => {
    const html = renderPolicyHistory([
      revision({
        actor: '<img src=x onerror="alert(1)">',
        reason: "</td><script>alert(1)</script>",
        changedFields: ["<b>"],
      }),
    ]);
    expect(html).not.toContain("<script");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>");
    expect(html).toContain("&#60;img src=x onerror=&#34;alert(1)&#34;&#62;");
    // Only our own tags remain, none with a style or an event handler.
    const tags = html.match(/<[^>]*>/g) ?? [];
    expect(tags.filter((t) => / style=| on[a-z]+=/.test(t))).toEqual([]);
  });

  it("says so when nothing was recorded, and survives a time out of range", () => {
    expect(renderPolicyHistory([])).toBe(
      '<p class="policy-history empty">No changes recorded for this policy.</p>',
    );
    expect(renderPolicyHistory([revision({ at: Number.MAX_VALUE })])).toContain(
      '<time datetime="-">-</time>',
    );
  });
});
