import { describe, expect, it } from "vitest";
import { AuditListener } from "./audit-listener.js";
import { AuditLog } from "./audit-log.js";
import { type AuditEvent, AuditSink } from "./audit-sink.js";
import { createPlatform } from "./platform.js";
import type { PlatformPlugin } from "./plugin.js";

function listening(heard: AuditEvent[], id = "test-listener"): PlatformPlugin {
  return {
    id,
    register: (ctx) =>
      ctx.registerMember(AuditListener, { useValue: { id, heard: (event) => heard.push(event) } }),
  };
}

describe("AuditListener: every recorded audit event is heard beside the effective sink", () => {
  it("a listener hears what the default sink records, and the embedded audit log still reads it", async () => {
    const heard: AuditEvent[] = [];
    const p = createPlatform({ env: {}, plugins: [listening(heard)] });
    p.resolve(AuditSink).record({ type: "auth.login.success", outcome: "success", principal: "alice" });
    expect(heard.map((e) => e.type)).toEqual(["auth.login.success"]);
    const stored = await p.resolve(AuditLog).query({ type: "auth.login.success" });
    expect(stored.map((e) => e.principal)).toEqual(["alice"]);
  });

  it("a host's replaced sink still stores every event, and listeners hear them too", () => {
    const heard: AuditEvent[] = [];
    const stored: AuditEvent[] = [];
    const p = createPlatform({
      env: {},
      plugins: [listening(heard, "a"), listening(heard, "b")],
      overrides: (o) => o.override(AuditSink, { useValue: { record: (event) => stored.push(event) } }),
    });
    p.resolve(AuditSink).record({ type: "authz.denied", outcome: "denied" });
    expect(stored.map((e) => e.type)).toEqual(["authz.denied"]);
    expect(heard.map((e) => e.type)).toEqual(["authz.denied", "authz.denied"]);
  });

  it("a throwing listener changes nothing: the sink stores, the next listener hears, record does not throw", () => {
    const heard: AuditEvent[] = [];
    const broken: PlatformPlugin = {
      id: "broken",
      register: (ctx) =>
        ctx.registerMember(AuditListener, {
          useValue: {
            id: "broken",
            heard: () => {
              throw new Error("listener down");
            },
          },
        }),
    };
    const p = createPlatform({ env: {}, plugins: [broken, listening(heard)] });
    expect(() => p.resolve(AuditSink).record({ type: "x.y" })).not.toThrow();
    expect(heard).toHaveLength(1);
  });

  it("the resolved sink keeps its identity: a host still holds its own object", () => {
    const heard: AuditEvent[] = [];
    const stored: AuditEvent[] = [];
    const sink = { record: (event: AuditEvent) => stored.push(event), extra: () => stored.length };
    const p = createPlatform({
      env: {},
      plugins: [listening(heard)],
      overrides: (o) => o.override(AuditSink, { useValue: sink }),
    });
    expect(p.resolve(AuditSink)).toBe(sink);
    p.resolve(AuditSink).record({ type: "a.b" });
    expect(sink.extra()).toBe(1);
    expect(heard).toHaveLength(1);
  });

  it("a frozen sink is wrapped instead, and still stores every event", () => {
    const heard: AuditEvent[] = [];
    const stored: AuditEvent[] = [];
    const sink = Object.freeze({ record: (event: AuditEvent) => void stored.push(event) });
    const p = createPlatform({
      env: {},
      plugins: [listening(heard)],
      overrides: (o) => o.override(AuditSink, { useValue: sink }),
    });
    p.resolve(AuditSink).record({ type: "a.b" });
    expect(stored).toHaveLength(1);
    expect(heard).toHaveLength(1);
  });

  it("without listeners the sink is the one registered (nothing wraps it)", () => {
    const sink = { record: () => {} };
    const p = createPlatform({ env: {}, overrides: (o) => o.override(AuditSink, { useValue: sink }) });
    expect(p.resolve(AuditSink)).toBe(sink);
  });

  it("two platforms in one process do not share listeners", () => {
    const first: AuditEvent[] = [];
    const second: AuditEvent[] = [];
    const a = createPlatform({ env: {}, plugins: [listening(first)] });
    createPlatform({ env: {}, plugins: [listening(second)] });
    a.resolve(AuditSink).record({ type: "only.first" });
    expect(first).toHaveLength(1);
    expect(second).toHaveLength(0);
  });
});
