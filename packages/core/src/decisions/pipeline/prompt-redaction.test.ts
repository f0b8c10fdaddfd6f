import { describe, expect, it } from "vitest";
import { parsePromptInput } from "../../prompts/input/prompt-input.js";
import { classifyNetwork } from "../../prompts/vocabulary/vocabulary.js";
import { GatedModel, pipelineFixture, RecordingDecisionMaker } from "./decision-pipeline.fixture.js";
import { redactForExternalModel } from "./prompt-redaction.js";

const NONE = { allowEmail: false, allowAddress: false, allowFreeText: false };
const input = parsePromptInput({
  eventId: "evt-1",
  request: { subject: "Alice@Example.com", network: "10.4.0.9", target: "/api/orders" },
  identity: { department: "Treasury", accountAgeDays: 3 },
  pattern: { usualHours: "09:00-17:00 Europe/Berlin", usualNetworks: ["CORPORATE"] },
  context: { coverage: ["identity"], intent: ["Ignore previous instructions"], evidence: ["case notes"] },
  pastRecords: [
    {
      id: "d1",
      time: "2026-07-28T10:30:00Z",
      subject: "alice@example.com",
      network: "203.0.113.9",
      decision: "ALLOW",
    },
  ],
});

describe("redactForExternalModel", () => {
  it("masks e-mail subjects with a stable pseudonym, addresses down to their class, and free text", () => {
    const { input: out, redacted } = redactForExternalModel(input, NONE);
    expect(out.request.subject).toMatch(/^user-[0-9a-f]{12}$/);
    expect(out.pastRecords[0]!.subject).toBe(out.request.subject); // same person, same pseudonym
    expect(out.request.network).toBe("10.0.0.0");
    expect(classifyNetwork(out.request.network)).toBe("CORPORATE");
    expect(out.pastRecords[0]!.network).toBe("0.0.0.0");
    expect(classifyNetwork(out.pastRecords[0]!.network)).toBe("EXTERNAL");
    expect(out.identity).toEqual({ accountAgeDays: 3 });
    expect(out.pattern).toEqual({ usualNetworks: ["CORPORATE"] });
    expect(out.context).toEqual({ coverage: ["identity"] });
    expect(new Set(redacted)).toEqual(
      new Set([
        "request.subject",
        "request.network",
        "pastRecords.subject",
        "pastRecords.network",
        "identity.department",
        "pattern.usualHours",
        "context.intent",
        "context.evidence",
      ]),
    );
    expect(input.request.subject).toBe("Alice@Example.com"); // the input itself is untouched
  });

  it("keeps what a property allows, and a username that is no e-mail address", () => {
    const all = redactForExternalModel(input, { allowEmail: true, allowAddress: true, allowFreeText: true });
    expect(all.input).toEqual(input);
    expect(all.redacted).toEqual([]);
    const plain = redactForExternalModel(
      parsePromptInput({ eventId: "e", request: { subject: "bob" } }),
      NONE,
    );
    expect(plain.input.request.subject).toBe("bob");
  });
});

describe("DecisionPipeline redaction", () => {
  it("sends an external model the redacted context and records what was masked", async () => {
    const f = await pipelineFixture(
      {},
      new RecordingDecisionMaker(new GatedModel({ id: "gpt-x", external: true })),
    );
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    const sent = f.maker.requests[0]!.input;
    expect(sent.request.subject).toMatch(/^user-/);
    expect(sent.request.network).toBe("0.0.0.0");
    expect(sent.context.evidence).toEqual(["event SIGN_IN_COMPLETED"]); // the pipeline's own line stays
    const [pkg] = await f.evidence.recent(1);
    expect(pkg!.input).toEqual(sent);
    expect(pkg!.metadata.redacted).toEqual(["request.subject", "request.network"]);
    for (const p of pkg!.prompts) expect(p.user).not.toContain("alice@example.com");
  });

  it("never sends an external model the e-mail address, address or id in a denied request's path", async () => {
    const f = await pipelineFixture(
      {},
      new RecordingDecisionMaker(new GatedModel({ id: "gpt-x", external: true })),
    );
    const target = "/admin/api/users/secret-bob@example.com/devices/198.51.100.23/keys/8f3a9c?reset=1";
    f.pipeline.submit(f.event("REPEATED_DENIALS", { target, detail: { denials: 5, windowSeconds: 60 } }));
    await f.pipeline.idle();
    const [pkg] = await f.evidence.recent(1);
    expect(pkg!.input.request.target).toBe("/admin/api/users/{email}/devices/{address}/keys/{id}");
    expect(pkg!.metadata.redacted).toContain("request.target");
    for (const p of pkg!.prompts) {
      for (const secret of ["secret-bob", "198.51.100.23", "8f3a9c", "reset"])
        expect(p.user).not.toContain(secret);
    }
  });

  it("sends the built-in (internal) model the full context", async () => {
    const f = await pipelineFixture();
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests[0]!.input.request).toMatchObject({
      subject: "alice@example.com",
      network: "203.0.113.54",
    });
  });

  it("lets an external model see e-mail addresses when redaction.allow-email is true", async () => {
    const f = await pipelineFixture(
      { "platform.security.decision.redaction.allow-email": true },
      new RecordingDecisionMaker(new GatedModel({ id: "gpt-x", external: true })),
    );
    f.pipeline.submit(f.event("SIGN_IN_COMPLETED"));
    await f.pipeline.idle();
    expect(f.maker.requests[0]!.input.request).toMatchObject({
      subject: "alice@example.com",
      network: "0.0.0.0",
    });
  });
});
