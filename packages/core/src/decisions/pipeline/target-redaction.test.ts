import { describe, expect, it } from "vitest";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { classifyAction, classifyResource } from "../../prompts/vocabulary/vocabulary.js";
import { redactForExternalModel } from "./prompt-redaction.js";
import { redactTarget } from "./target-redaction.js";

const NONE = { allowEmail: false, allowAddress: false, allowFreeText: false };
const ALL = { allowEmail: true, allowAddress: true, allowFreeText: true };

describe("redactTarget", () => {
  it("masks e-mail, address and id segments and drops the query, keeping the plain words", () => {
    expect(redactTarget("/admin/api/users/secret-alice@example.com/sessions?token=abc#x", NONE)).toBe(
      "/admin/api/users/{email}/sessions",
    );
    expect(redactTarget("/api/orders/42", NONE)).toBe("/api/orders/{id}");
    expect(redactTarget("/api/devices/10.1.2.3/ports/2001:db8::1", NONE)).toBe(
      "/api/devices/{address}/ports/{address}",
    );
    expect(redactTarget("/api/users/3f2b9c1e-8d7a-4b6c-9e1f-0a2b3c4d5e6f", NONE)).toBe("/api/users/{id}");
    expect(redactTarget("/api/payment-methods/default_card", NONE)).toBe("/api/payment-methods/default_card");
  });

  it("shows only plain lower-case words of up to 24 characters: tokens and names in other shapes are ids", () => {
    expect(redactTarget("/reset/abcdefghijklmnopqrstuvwxyzABCDEF", NONE)).toBe("/reset/{id}");
    expect(redactTarget("/api/users/ALICE_at_example_com", NONE)).toBe("/api/users/{id}");
    expect(redactTarget("/api/users/abcdefghijklmnopqrstuvwxy", NONE)).toBe("/api/users/{id}"); // 25
    expect(redactTarget("/api/users/abcdefghijklmnopqrstuvwx", NONE)).toBe(
      "/api/users/abcdefghijklmnopqrstuvwx",
    );
  });

  it("decodes a segment once before judging it, so an escaped @ is still an e-mail", () => {
    expect(redactTarget("/api/users/alice%40example.com", NONE)).toBe("/api/users/{email}");
    expect(redactTarget("/api/users/%E0%A4%A", NONE)).toBe("/api/users/{id}"); // a broken escape
  });

  it("keeps what each property allows, and everything when all are allowed", () => {
    const target = "/api/users/a@b.example/hosts/10.0.0.1/orders/42?q=1";
    expect(redactTarget(target, ALL)).toBe(target);
    expect(redactTarget(target, { ...NONE, allowEmail: true })).toBe(
      "/api/users/a@b.example/hosts/{address}/orders/{id}",
    );
    expect(redactTarget(target, { ...NONE, allowAddress: true })).toBe(
      "/api/users/{email}/hosts/10.0.0.1/orders/{id}",
    );
  });

  it("leaves the action and resource class the vocabulary derives unchanged", () => {
    for (const target of [
      "/admin/users/x@y.z",
      "/api/users/7",
      "/api/payments/9?x=1",
      "/public/a/1",
      "/x/1",
    ]) {
      const shown = redactTarget(target, NONE);
      expect(classifyResource(shown)).toBe(classifyResource(target));
      expect(classifyAction("GET", shown)).toBe(classifyAction("GET", target));
    }
  });

  it("stays linear on a long hostile target", () => {
    const hostile = `/api/${"a".repeat(31)}!`.repeat(2_000);
    expect(redactTarget(hostile, NONE).length).toBeLessThan(hostile.length);
  });
});

describe("redactForExternalModel: what the last attacker got past", () => {
  it("pseudonymises any subject with an @, and drops an address the parser cannot read", () => {
    for (const subject of ["alice@example.com ", "a@b@example.com", '"a b"@example.com']) {
      const out = redactForExternalModel(parsePromptInput({ eventId: "e", request: { subject } }), NONE);
      expect(out.input.request.subject).toMatch(/^user-[0-9a-f]{12}$/);
    }
    for (const network of ["203.0.113.7:51234", "fe80::1%eth0", "[2001:db8::1]", "203.000.113.007"]) {
      const out = redactForExternalModel(
        parsePromptInput({
          eventId: "e",
          request: { network },
          pastRecords: [{ id: "d", time: "2026-07-28T10:30:00Z", decision: "ALLOW", network }],
        }),
        NONE,
      );
      expect(out.input.request.network).toBeUndefined();
      expect(out.input.pastRecords[0]!.network).toBeUndefined();
      expect(out.redacted).toEqual(expect.arrayContaining(["request.network", "pastRecords.network"]));
    }
  });
});

describe("redactForExternalModel: request targets", () => {
  it("masks the request's and the past records' targets and lists them as redacted", () => {
    const input = parsePromptInput({
      eventId: "e",
      request: { subject: "bob", target: "/admin/api/users/secret-alice@example.com" },
      pastRecords: [{ id: "d1", time: "2026-07-28T10:30:00Z", decision: "ALLOW", target: "/api/orders/7" }],
    });
    const { input: out, redacted } = redactForExternalModel(input, NONE);
    expect(out.request.target).toBe("/admin/api/users/{email}");
    expect(out.pastRecords[0]!.target).toBe("/api/orders/{id}");
    expect(redacted).toEqual(expect.arrayContaining(["request.target", "pastRecords.target"]));
    expect(redactForExternalModel(input, ALL).redacted).toEqual([]);
  });
});
