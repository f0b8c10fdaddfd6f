import { describe, expect, it } from "vitest";
import { createPlatform } from "../../kernel/platform.js";
import { PlatformError } from "../../kernel/platform-error.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { user } from "./authentication.fixture.js";
import {
  SUBJECT_GOES_ON,
  type SubjectStatusCheck,
  SubjectStatusCheck as SubjectStatusCheckToken,
  type SubjectStatusQuery,
  subjectStatusChecksOf,
  subjectStatusGate,
  subjectStatusGateAt,
} from "./subject-status-check.js";

const query: SubjectStatusQuery = {
  checkpoint: "sign-in",
  authentication: user("u-1", "alice"),
  exchange: new HttpExchange({
    method: "POST",
    url: "/login",
    headers: {},
    remoteAddress: "203.0.113.1",
    readBody: async () => "",
  }),
};

function member(id: string, calls: string[], refuse = false): SubjectStatusCheck {
  return {
    id,
    check: async (q) => {
      calls.push(`${id}:${q.checkpoint}`);
      if (refuse) throw new PlatformError("ZERO_TRUST_BLOCKED", "Access is blocked");
    },
  };
}

describe("subjectStatusGate", () => {
  it("lets everyone through with no member (identity's default)", async () => {
    expect(subjectStatusGate([])(query)).toBe(SUBJECT_GOES_ON);
  });

  it("asks every member in order; the first refusal stops the rest and is the answer", async () => {
    const calls: string[] = [];
    const gate = subjectStatusGate([member("a", calls), member("b", calls, true), member("c", calls)]);
    await expect(gate(query)).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
    expect(calls).toEqual(["a:sign-in", "b:sign-in"]);
  });

  it("reads the family from a platform's container, none when nothing is registered", () => {
    expect(subjectStatusChecksOf(createPlatform({ env: {} }).container)).toEqual([]);
    const calls: string[] = [];
    const platform = createPlatform({
      env: {},
      plugins: [
        {
          id: "checks",
          register(ctx) {
            ctx.registerMember(SubjectStatusCheckToken, { useValue: member("a", calls) });
            ctx.registerMember(SubjectStatusCheckToken, { useValue: member("b", calls) });
          },
        },
      ],
    });
    expect(subjectStatusChecksOf(platform.container).map((m) => m.id)).toEqual(["a", "b"]);
  });

  it("asks a lone member that is a plain function directly: its promise as it is, a synchronous throw as a rejection", async () => {
    const settled = Promise.resolve();
    const answering: SubjectStatusCheck = { id: "memo", check: () => settled };
    const throwing: SubjectStatusCheck = {
      id: "sync",
      check: () => {
        throw new PlatformError("ZERO_TRUST_BLOCKED", "Access is blocked");
      },
    };
    // A host's JavaScript check that answers nothing at all still lets the caller through.
    const silent = { id: "js", check: () => undefined } as unknown as SubjectStatusCheck;
    for (const gateOf of [
      (m: SubjectStatusCheck) => subjectStatusGate([m]),
      (m: SubjectStatusCheck) => subjectStatusGateAt([m], "sign-in"),
    ]) {
      expect(gateOf(answering)(query)).toBe(settled);
      const refused = gateOf(throwing)(query);
      expect(refused).toBeInstanceOf(Promise);
      await expect(refused).rejects.toMatchObject({ code: "ZERO_TRUST_BLOCKED" });
      await expect(gateOf(silent)(query)).resolves.toBeUndefined();
    }
  });
});
