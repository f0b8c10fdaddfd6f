import { describe, expect, it } from "vitest";
import { incomingCorrelationId, isSafeId, MAX_CORRELATION_ID_LENGTH, traceIdOf } from "./correlation-id.js";

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const traceparent = (trace = TRACE, parent = PARENT, version = "00", flags = "01") =>
  `${version}-${trace}-${parent}-${flags}`;

function headers(values: Record<string, string>): Headers {
  return new Headers(values);
}

describe("incomingCorrelationId: the caller's id when well-formed, else none (a new one is made)", () => {
  it("adopts X-Request-Id, then X-Correlation-Id, then a traceparent's trace id", () => {
    expect(incomingCorrelationId(headers({ "x-request-id": "req-1", "x-correlation-id": "corr-1" }))).toBe(
      "req-1",
    );
    expect(
      incomingCorrelationId(headers({ "x-correlation-id": "corr.1_A", traceparent: traceparent() })),
    ).toBe("corr.1_A");
    expect(incomingCorrelationId(headers({ traceparent: traceparent() }))).toBe(TRACE);
    expect(incomingCorrelationId(headers({}))).toBeUndefined();
  });

  it("skips a malformed header and takes the next well-formed one", () => {
    expect(incomingCorrelationId(headers({ "x-request-id": "bad id", "x-correlation-id": "good" }))).toBe(
      "good",
    );
    expect(
      incomingCorrelationId(headers({ "x-request-id": "x".repeat(65), traceparent: traceparent() })),
    ).toBe(TRACE);
  });

  it("accepts 1 to 64 characters of A-Z a-z 0-9 . _ - (a UUID, a ULID, a proxy's hex id)", () => {
    for (const id of [
      "a",
      "0f8fad5b-d9cb-469f-a165-70867728950e",
      "01ARZ3NDEKTSV4RRFFQ69G5FAV",
      "x".repeat(64),
    ])
      expect(isSafeId(id)).toBe(true);
  });

  it.each([
    ["empty", ""],
    ["overlong (65)", "x".repeat(MAX_CORRELATION_ID_LENGTH + 1)],
    ["huge", "a".repeat(100_000)],
    ["a space", "a b"],
    ["CR LF (header or log-line injection)", "id\r\nSet-Cookie: x=1"],
    ["a newline", 'id\n{"level":"error"}'],
    ["a control character", "id\u0001"],
    ["NUL", "id\u0000"],
    ["unicode letters", "idé"],
    ["a right-to-left override", "id\u202Egnp.exe"],
    ["a quote (JSON or log injection)", 'id"x'],
    ["a slash", "a/b"],
    ["percent-encoding", "%0d%0a"],
  ])("refuses %s", (_name, value) => {
    expect(isSafeId(value)).toBe(false);
    expect(
      incomingCorrelationId({ get: (name) => (name === "x-request-id" ? value : null) }),
    ).toBeUndefined();
  });

  it("decides in linear time on a long hostile value (no backtracking)", () => {
    const hostile = `${"a".repeat(1_000_000)}!`;
    const started = performance.now();
    expect(isSafeId(hostile)).toBe(false);
    expect(traceIdOf(hostile)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(50);
  });
});

describe("traceIdOf: W3C traceparent, version 00, strictly", () => {
  it("takes the trace id of a well-formed header", () => {
    expect(traceIdOf(traceparent())).toBe(TRACE);
    expect(traceIdOf(traceparent(TRACE, PARENT, "00", "00"))).toBe(TRACE);
  });

  it.each([
    ["another version", traceparent(TRACE, PARENT, "01")],
    ["version ff (invalid)", traceparent(TRACE, PARENT, "ff")],
    ["an all-zero trace id", traceparent("0".repeat(32))],
    ["an all-zero parent id", traceparent(TRACE, "0".repeat(16))],
    ["upper-case hex", traceparent(TRACE.toUpperCase())],
    ["a short trace id", traceparent(TRACE.slice(1))],
    ["a non-hex trace id", traceparent(`${TRACE.slice(1)}g`)],
    ["a non-hex flag", traceparent(TRACE, PARENT, "00", "0x")],
    ["extra fields (future versions only)", `${traceparent()}-extra`],
    ["wrong separators", traceparent().replaceAll("-", "_")],
    ["surrounding spaces", ` ${traceparent()}`],
    ["empty", ""],
  ])("refuses %s", (_name, value) => {
    expect(traceIdOf(value)).toBeUndefined();
  });
});
