import { describe, expect, it } from "vitest";
import type {
  InspectionFindingJson,
  InspectionOverviewJson,
  InspectionPackageDetailJson,
} from "../../web/wire/inspection-messages.js";
import { CHECK_CODES } from "../inspection-result.js";
import { renderInspectionOverview } from "./inspection-overview-view.js";
import { renderInspectionPackage } from "./inspection-package-view.js";
import { renderInspectionPackages } from "./inspection-packages-view.js";
import { renderRehearsals } from "./inspection-rehearsals-view.js";

const HOSTILE = `"><script>alert(1)</script><img src=x onerror=alert(2)>`;
const DAY = 86_400_000;

function finding(over: Partial<InspectionFindingJson>): InspectionFindingJson {
  return {
    check: "FACT_ACCURACY",
    kind: "MISMATCH",
    reason: "VALUE_DIFFERS",
    detail: `subject reads "${HOSTILE}"`,
    location: { prompt: 0, layer: "L1", part: "user", line: 2 },
    factId: "F2",
    key: "request.subject",
    promptLine: `1. subject: ${HOSTILE} {F2}`,
    ...over,
  };
}

function detail(over: Partial<InspectionPackageDetailJson> = {}): InspectionPackageDetailJson {
  const findings = [
    finding({}),
    finding({
      check: "SAME_FACT",
      kind: "UNVERIFIABLE",
      reason: "REDACTED",
      location: null,
      promptLine: null,
    }),
    finding({
      check: "SEAL_INTEGRITY",
      reason: "PROMPT_MISSING",
      location: { prompt: 0, layer: "L1", part: "system", line: null },
    }),
  ];
  return {
    packageId: `pkg-${HOSTILE}`,
    capturedAt: 20 * DAY,
    result: {
      packageId: "pkg",
      capturedAt: 20 * DAY,
      inspectedAt: 21 * DAY,
      inspectorVersion: "prompt-inspector/1",
      dictionaryVersion: "v20@9d87255aa312",
      layout: "v20-dictionary-blocks",
      verdict: "FAIL",
      mismatches: 2,
      unverifiable: 1,
      failedChecks: ["SEAL_INTEGRITY", "FACT_ACCURACY"],
      error: null,
      checks: CHECK_CODES.map((check) => ({ check, status: "PASS" as const, items: 1 })),
      findings,
    },
    seal: {
      packageHash: "a".repeat(64),
      instanceId: "node-1",
      sequence: 7,
      link: "b".repeat(64),
      checkpoint: null,
      intact: true,
      reason: null,
      erased: false,
    },
    prompts: [
      {
        layer: "L1",
        system: "You decide.\nAnswer JSON.",
        user: `[REQUEST]\n1. subject: ${HOSTILE} {F2}\n2. action: read {F3}`,
      },
    ],
    ...over,
  };
}

describe("the inspection console's views", () => {
  it("the package page shows each finding beside the prompt line it stands on, escaped", () => {
    const html = renderInspectionPackage(detail());
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    // Line 2 of the user prompt carries the FACT_ACCURACY finding; lines 1 and 3 carry none.
    const line2 = html.match(/<li value="2" id="p0-user-2" class="flagged">(.*?)<\/li><\/ul><\/li>/s)?.[1];
    expect(line2).toContain("subject: &#34;&#62;&#60;script&#62;");
    expect(line2).toContain('data-check="FACT_ACCURACY"');
    expect(html).toMatch(/<li value="1" id="p0-user-1"><code class="prompt-line">\[REQUEST\]<\/code><\/li>/);
    expect(html).toMatch(
      /<li value="3" id="p0-user-3"><code class="prompt-line">2\. action: read \{F3\}<\/code><\/li>/,
    );
    // A finding of the whole system part sits above it (and unfolds it); one with no place is listed apart.
    expect(html).toMatch(
      /<section class="prompt-part" data-part="system" data-prompt="0"><h3>L1 system prompt \(prompt 1\): 1 finding<\/h3><ul class="part-findings"><li class="finding finding-mismatch" data-check="SEAL_INTEGRITY"/,
    );
    expect(html).toContain(
      'Findings not shown on a line</h2><ul class="findings"><li class="finding finding-unverifiable" data-check="SAME_FACT"',
    );
    expect(html).toContain('<span class="status verdict-fail">FAIL</span>');
  });

  it("without prompts (erased) every finding is listed apart with its line as kept", () => {
    const html = renderInspectionPackage(detail({ prompts: null }));
    expect(html).toContain("The prompts are no longer kept");
    expect(html.match(/class="finding /g)).toHaveLength(3);
    expect(html).not.toContain('class="prompt-lines"');
    expect(html).not.toContain("<script>");
  });

  it("the overview links each verdict and check to the packages page of its period", () => {
    const overview: InspectionOverviewJson = {
      from: 14 * DAY,
      to: 21 * DAY,
      inspectorVersion: "prompt-inspector/1",
      dictionaryVersion: "v20@9d87255aa312",
      inspected: 3,
      truncated: false,
      byVerdict: { PASS: 2, FAIL: 1, INCOMPLETE: 0, NOT_APPLICABLE: 0, ERROR: 0 },
      byCheck: CHECK_CODES.map((check) => ({
        check,
        mismatchPackages: 0,
        unverifiablePackages: 0,
        mismatchFindings: 0,
        unverifiableFindings: 0,
      })),
      byReason: [{ check: "FACT_ACCURACY", kind: "MISMATCH", reason: HOSTILE, findings: 1 }],
    };
    const html = renderInspectionOverview(overview);
    expect(html).toContain(
      'href="/platform/admin/prompt-inspection/packages?verdict=FAIL&#38;from=1970-01-15T00%3A00%3A00Z&#38;to=1970-01-22T00%3A00%3A00Z"',
    );
    expect(html).toContain('href="/platform/admin/prompt-inspection/packages?check=REASON_MATCH&#38;');
    expect(html).toContain('<strong class="inspected">3</strong>');
    expect(html).not.toContain("<script>");
  });

  it("the packages page keeps the filters, escapes them, and pages with the cursor", () => {
    const html = renderInspectionPackages(
      {
        packages: [
          {
            packageId: `p/${HOSTILE}`,
            capturedAt: DAY,
            inspectedAt: DAY,
            inspectorVersion: "prompt-inspector/1",
            dictionaryVersion: "v20@x",
            layout: null,
            verdict: "ERROR",
            mismatches: 0,
            unverifiable: 0,
            failedChecks: [],
            error: { code: "PACKAGE_UNREADABLE", detail: HOSTILE },
          },
        ],
        next: "c&d",
      },
      { verdict: "ERROR", block: HOSTILE },
    );
    expect(html).not.toContain("<script>");
    expect(html).toContain('<option value="ERROR" selected>ERROR</option>');
    expect(html).toContain(`href="/platform/admin/prompt-inspection/packages/p%2F%22%3E%3Cscript%3E`);
    expect(html).toContain(
      'rel="next" href="/platform/admin/prompt-inspection/packages?verdict=ERROR&#38;block=%22%3E%3Cscript',
    );
    expect(html).toContain("cursor=c%26d");
  });

  it("the overview's rehearsals flag a failing one and escape what an administrator's name holds", () => {
    const content = {
      period: { from: DAY, to: 2 * DAY },
      packages: 4,
      truncated: false,
      verdicts: { PASS: 2, FAIL: 1, INCOMPLETE: 1, NOT_APPLICABLE: 0, ERROR: 0 },
    };
    const record = {
      id: "ev-1",
      kind: "REHEARSAL" as const,
      promptKey: "cortex.security-decision",
      promptVersion: "2026.09.15-v20",
      bundleHash: "a".repeat(64),
      recordedBy: HOSTILE,
      recordedAt: 3 * DAY,
      content,
      contentHash: "c".repeat(64),
    };
    const html = renderRehearsals([record]);
    expect(html).toContain('data-outcome="FAIL"');
    expect(html).toContain('<span class="alert-flag">PASS 2, FAIL 1, INCOMPLETE 1');
    expect(html).not.toContain("<script>");
    expect(renderRehearsals([])).toContain("No rehearsal recorded yet");
    expect(renderRehearsals(undefined)).toBe("");
  });
});
