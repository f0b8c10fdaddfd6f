import { inject, injectable } from "tsyringe";
import { describe, expect, it } from "vitest";
import { AuditSink } from "./audit-sink.js";
import { Clock, ManualClock } from "./clock.js";
import { EventBus } from "./event-bus.js";
import { IdGenerator } from "./id-generator.js";
import { InMemoryAuditSink } from "./in-memory-audit-sink.js";
import { Logger } from "./logger.js";
import { createPlatform } from "./platform.js";
import { isPlatformError, PlatformError } from "./platform-error.js";
import type { PlatformPlugin } from "./plugin.js";
import { defineProperty, prop } from "./properties.js";

interface Greeter {
  greet(): string;
}
const Greeter = Symbol.for("test.Greeter");

@injectable()
class ClockedGreeter implements Greeter {
  constructor(@inject(Clock) private readonly clock: Clock) {}
  greet(): string {
    return `default@${this.clock.now()}`;
  }
}

const GREETING = defineProperty({
  key: "test.greeting.enabled",
  schema: prop.bool(),
  default: true,
  description: "t",
});

function greeterPlugin(log: string[] = []): PlatformPlugin {
  return {
    id: "greeter",
    properties: [GREETING],
    register(ctx) {
      ctx.registerDefault(Greeter, { useClass: ClockedGreeter });
      ctx.onStart("warm-up", () => {
        log.push("start greeter");
      });
      ctx.onStop("close", () => {
        log.push("stop greeter");
      });
    },
  };
}

describe("createPlatform", () => {
  it("gives each platform its own container, so registrations never leak between platforms", () => {
    const a = createPlatform({ env: {} });
    const b = createPlatform({ env: {} });
    expect(a.container).not.toBe(b.container);
    expect(a.resolve(EventBus)).not.toBe(b.resolve(EventBus));
    expect(a.resolve(EventBus)).toBe(a.resolve(EventBus));
    a.container.registerInstance(Greeter, { greet: () => "a only" });
    expect(b.container.isRegistered(Greeter, true)).toBe(false);
  });

  it("registers the kernel defaults", () => {
    const p = createPlatform({ env: {} });
    expect(p.resolve(Clock).now()).toBeTypeOf("number");
    expect(p.resolve(IdGenerator).secret()).toMatch(/^[\w-]{43}$/);
    expect(p.resolve(AuditSink)).toBeInstanceOf(InMemoryAuditSink);
  });

  it("keeps the host's registration instead of a default (missing-bean rule)", () => {
    const clock = new ManualClock(7);
    const host: Greeter = { greet: () => "host" };
    const p = createPlatform({
      plugins: [greeterPlugin()],
      env: {},
      register: (c) => {
        c.registerInstance(Clock, clock);
        c.registerInstance(Greeter, host);
      },
    });
    expect(p.resolve(Clock)).toBe(clock);
    expect(p.resolve<Greeter>(Greeter)).toBe(host);
    const withDefault = createPlatform({
      plugins: [greeterPlugin()],
      env: {},
      register: (c) => c.registerInstance(Clock, clock),
    });
    expect(withDefault.resolve<Greeter>(Greeter).greet()).toBe("default@7");
  });

  it("sizes the audit buffer from its property", () => {
    const p = createPlatform({ env: {}, properties: { "platform.audit.memory.capacity": 2 } });
    const sink = p.resolve(AuditSink) as InMemoryAuditSink;
    for (let i = 0; i < 5; i++) sink.record({ type: "t" });
    expect(sink.events()).toHaveLength(2);
    expect(sink.dropped).toBe(3);
  });

  it("stops on a bad property value before anything starts", () => {
    let error: unknown;
    try {
      createPlatform({ env: { PLATFORM_AUDIT_MEMORY_CAPACITY: "0" } });
    } catch (e) {
      error = e;
    }
    expect(isPlatformError(error) && error.code).toBe("PROPERTY_INVALID");
    expect(String((error as Error).message)).toContain("platform.audit.memory.capacity");
  });

  it("runs start hooks in plugin order and stop hooks in reverse", async () => {
    const log: string[] = [];
    const second: PlatformPlugin = {
      id: "second",
      register(ctx) {
        ctx.onStart("s", () => {
          log.push("start second");
        });
        ctx.onStop("s", () => {
          log.push("stop second");
        });
      },
    };
    const p = createPlatform({ plugins: [greeterPlugin(log), second], env: {} });
    expect(p.state).toBe("created");
    await p.start();
    expect(p.state).toBe("started");
    expect(await p.stop()).toEqual([]);
    expect(log).toEqual(["start greeter", "start second", "stop second", "stop greeter"]);
    expect(p.state).toBe("stopped");
  });

  it("fails start-up when a hook fails, naming it, and runs the stop hooks", async () => {
    const log: string[] = [];
    const failing: PlatformPlugin = {
      id: "pdp",
      register(ctx) {
        ctx.onStart("load-policies", () => {
          throw new Error("store unreachable");
        });
      },
    };
    const p = createPlatform({ plugins: [greeterPlugin(log), failing], env: {} });
    await expect(p.start()).rejects.toThrow("pdp:load-policies failed: store unreachable");
    expect(log).toEqual(["start greeter", "stop greeter"]);
    await expect(p.start()).rejects.toMatchObject({ code: "ILLEGAL_STATE_TRANSITION" });
  });

  it("runs every connect hook before any start hook, wherever the store plugin is listed", async () => {
    const log: string[] = [];
    const store: PlatformPlugin = {
      id: "store",
      register(ctx) {
        ctx.onConnect("connect", () => {
          log.push("connect store");
        });
        ctx.onStart("s", () => {
          log.push("start store");
        });
      },
    };
    await createPlatform({ plugins: [greeterPlugin(log), store], env: {} }).start();
    expect(log).toEqual(["connect store", "start greeter", "start store"]);
  });

  it("keeps a start hook's own error code (a database down is not a configuration error)", async () => {
    const down: PlatformPlugin = {
      id: "store",
      register(ctx) {
        ctx.onConnect("connect", () => {
          throw new PlatformError("DEPENDENCY_UNAVAILABLE", "connection refused");
        });
      },
    };
    const p = createPlatform({ plugins: [down], env: {} });
    await expect(p.start()).rejects.toMatchObject({
      code: "DEPENDENCY_UNAVAILABLE",
      message: "Start-up hook store:connect failed: connection refused",
    });
  });

  it("reports stop-hook failures without throwing", async () => {
    const failing: PlatformPlugin = {
      id: "x",
      register(ctx) {
        ctx.onStop("close", () => {
          throw new Error("already closed");
        });
      },
    };
    const p = createPlatform({ plugins: [failing], env: {} });
    await p.start();
    const failures = await p.stop();
    expect(failures.map((f) => f.hook)).toEqual(["x:close"]);
    expect(await p.stop()).toEqual([]);
  });

  it("refuses a plugin installed twice", () => {
    expect(() => createPlatform({ plugins: [greeterPlugin(), greeterPlugin()], env: {} })).toThrow(
      /installed twice/,
    );
  });

  it("reads family members with resolveAll", () => {
    const Family = Symbol.for("test.Family");
    const plugin: PlatformPlugin = {
      id: "family",
      register(ctx) {
        ctx.registerMember(Family, { useValue: "a" });
        ctx.registerMember(Family, { useValue: "b" });
      },
    };
    expect(createPlatform({ plugins: [plugin], env: {} }).container.resolveAll(Family)).toEqual(["a", "b"]);
  });
});

describe("createPlatform: environment variables that name nothing", () => {
  it("warns at start of each ignored PLATFORM_*/SECURITY_* variable with the nearest name; a module's own is not warned", async () => {
    const lines: { message: string; fields?: Record<string, unknown> }[] = [];
    const logger: Logger = {
      info: () => {},
      error: () => {},
      warn: (message, fields) => lines.push({ message, ...(fields ? { fields } : {}) }),
    };
    const platform = createPlatform({
      plugins: [{ id: "reader", environment: ["PLATFORM_MY_API_KEY"] }],
      env: {
        PLATFORM_CHANGES_POLL_INTERVALL: "5s",
        PLATFORM_MY_API_KEY: "secret",
        PLATFORM_INSTANCE_ID: "i-1",
        SECURITY_SOMETHING: "x",
      },
      overrides: (o) => o.override(Logger, { useValue: logger }),
    });
    expect(lines).toEqual([]);
    await platform.start();
    expect(lines).toEqual([
      {
        message: "environment variable names no property and is ignored",
        fields: { variable: "PLATFORM_CHANGES_POLL_INTERVALL", didYouMean: "PLATFORM_CHANGES_POLL_INTERVAL" },
      },
      {
        message: "environment variable names no property and is ignored",
        fields: { variable: "SECURITY_SOMETHING" },
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain("secret");
    await platform.stop();
  });
});
