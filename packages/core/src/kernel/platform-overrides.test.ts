import { describe, expect, it } from "vitest";
import { AuditLog, UnreadableAuditLog } from "./audit-log.js";
import { AuditSink } from "./audit-sink.js";
import { Clock, ManualClock } from "./clock.js";
import { InMemoryAuditSink } from "./in-memory-audit-sink.js";
import { createPlatform } from "./platform.js";
import { isPlatformError } from "./platform-error.js";
import type { PlatformPlugin } from "./plugin.js";

interface Greeter {
  greet(): string;
}
const Greeter = Symbol.for("test.override.Greeter");
const Listener = Symbol.for("test.override.Listener");

const defaultGreeter: PlatformPlugin = {
  id: "greeter",
  register: (ctx) => ctx.registerDefault<Greeter>(Greeter, { useValue: { greet: () => "default" } }),
};

function overriding(id: string, greeting: string): PlatformPlugin {
  return {
    id,
    register: (ctx) => ctx.override<Greeter>(Greeter, { useValue: { greet: () => greeting } }),
  };
}

describe("the override rule: defaults, then plugins' overrides in order, then the host's", () => {
  it("a plugin listed after the one that registers the default replaces it (registerDefault could not)", () => {
    const p = createPlatform({ env: {}, plugins: [defaultGreeter, overriding("late", "late plugin")] });
    expect(p.resolve<Greeter>(Greeter).greet()).toBe("late plugin");
  });

  it("a plugin listed before the default's plugin replaces it too", () => {
    const p = createPlatform({ env: {}, plugins: [overriding("early", "early plugin"), defaultGreeter] });
    expect(p.resolve<Greeter>(Greeter).greet()).toBe("early plugin");
  });

  it("plugins' overrides apply in plugin order, and the host's come last", () => {
    const plugins = [defaultGreeter, overriding("a", "a"), overriding("b", "b")];
    expect(createPlatform({ env: {}, plugins }).resolve<Greeter>(Greeter).greet()).toBe("b");
    const host = createPlatform({
      env: {},
      plugins,
      overrides: (o) => o.override<Greeter>(Greeter, { useValue: { greet: () => "host" } }),
    });
    expect(host.resolve<Greeter>(Greeter).greet()).toBe("host");
  });

  it("a factory override gets the container (the Clock, say) and is called once", () => {
    const clock = new ManualClock(42);
    let calls = 0;
    const p = createPlatform({
      env: {},
      plugins: [defaultGreeter],
      overrides: (o) => {
        o.override(Clock, { useValue: clock });
        o.override<Greeter>(Greeter, {
          useFactory: (c) => {
            calls++;
            const at = c.resolve(Clock).now();
            return { greet: () => `host@${at}` };
          },
        });
      },
    });
    expect(p.resolve<Greeter>(Greeter).greet()).toBe("host@42");
    expect(p.resolve(Greeter)).toBe(p.resolve(Greeter));
    expect(calls).toBe(1);
  });

  it("defaults that depend on an overridden port get the override (the kernel's AuditSink reads the host's Clock)", async () => {
    const p = createPlatform({
      env: {},
      overrides: (o) => o.override(Clock, { useValue: new ManualClock(7) }),
    });
    p.resolve(AuditSink).record({ type: "x" });
    expect(await p.resolve(AuditLog).query()).toEqual([{ type: "x", at: 7 }]);
  });

  it("refuses to override a family token: families take members", () => {
    const family: PlatformPlugin = {
      id: "family",
      register: (ctx) => {
        ctx.registerMember(Listener, { useValue: "a" });
        ctx.override(Listener, { useValue: "b" });
      },
    };
    try {
      createPlatform({ env: {}, plugins: [family] });
      expect.unreachable();
    } catch (error) {
      expect(isPlatformError(error) && error.code).toBe("CONFIGURATION_INVALID");
    }
  });

  it("the AuditLog reads the AuditSink's trail; a sink replaced alone leaves the log saying so", async () => {
    const trail = new InMemoryAuditSink(10, new ManualClock(1));
    const both = createPlatform({
      env: {},
      overrides: (o) => {
        o.override(AuditSink, { useValue: trail });
        o.override(AuditLog, { useValue: trail });
      },
    });
    both.resolve(AuditSink).record({ type: "mine" });
    expect(await both.resolve(AuditLog).query()).toEqual([{ type: "mine", at: 1 }]);
    const sinkOnly = createPlatform({
      env: {},
      overrides: (o) => o.override(AuditSink, { useValue: trail }),
    });
    expect(sinkOnly.resolve(AuditLog)).toBeInstanceOf(UnreadableAuditLog);
    await expect(sinkOnly.resolve(AuditLog).query()).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
