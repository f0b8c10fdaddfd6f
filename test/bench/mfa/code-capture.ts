import { AsyncLocalStorage } from "node:async_hooks";
import type { MessagePort } from "node:worker_threads";
import type { HostConfig } from "@keyward/cli";
import { mfaSettingsFromProperties } from "@keyward/core/adapter-kit";
import {
  Clock,
  type FactorContext,
  FactorContextRepository,
  OneTimeTokenDelivery,
  type OneTimeTokenMessage,
} from "@keyward/core/ports";
import type { MfaSettings } from "../../../packages/core/src/mfa/mfa.properties.js";
import { InMemoryFactorContextRepository } from "../../../packages/core/src/mfa/state/in-memory-factor-context-repository.js";

/** What the flow client asks for: the code delivered for its MFA session. */
export interface CodeSource {
  /** The code sent for `mfaSessionId`; rejects when none arrives within `timeoutMs`. */
  codeFor(mfaSessionId: string, timeoutMs: number): Promise<string>;
}

/** A code request and its answer on the MessagePort between a load worker and the server thread. */
export type CodeRequest = { id: number; mfaSessionId: string; timeoutMs: number };
export type CodeReply = { id: number; code: string } | { id: number; error: string };

interface Pending {
  resolve(code: string): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/**
 * The benchmark's in-memory OneTimeTokenDelivery: keeps each MFA code, keyed by its MFA session, until
 * the flow client picks it up (nothing is written to the outbox file or the console).
 *
 * A delivered message names the user, not the MFA session, and several flows of `admin` are pending at
 * once. The runtime creates the FactorContext and, later in the same request, hands the code to the
 * delivery from a `setImmediate`: both run in that request's async context. So the FactorContext store
 * the benchmark registers (the default in-memory one, unchanged, plus this tag) enters the new
 * session's id into an AsyncLocalStorage at `create`, and `deliver` reads it back there.
 */
export class MfaCodeCapture implements OneTimeTokenDelivery {
  private readonly scope = new AsyncLocalStorage<{ mfaSessionId: string }>();
  private readonly codes = new Map<string, string>();
  private readonly waiting = new Map<string, Pending>();
  /** Codes delivered outside a tagged request (would mean the correlation broke). */
  untagged = 0;
  delivered = 0;
  /** The MFA settings of the platform this capture was registered in. */
  settings: MfaSettings | undefined;

  /**
   * The host registrations that install this capture (`buildDemoPlatform`'s `{ register }`): the
   * delivery port, and the default in-memory FactorContextRepository (same clock and retention as
   * registerMfaDefaults) with the session tag.
   */
  register(): NonNullable<HostConfig["register"]> {
    const scope = this.scope;
    class TaggingFactorContextRepository extends InMemoryFactorContextRepository {
      override create(ctx: FactorContext): Promise<FactorContext> {
        // Before any await, so that the store is entered in the caller's (the request's) context.
        scope.enterWith({ mfaSessionId: ctx.mfaSessionId });
        return super.create(ctx);
      }
    }
    return (container, properties) => {
      container.registerInstance(OneTimeTokenDelivery, this);
      const settings = mfaSettingsFromProperties(properties);
      this.settings = settings;
      let repository: FactorContextRepository | undefined;
      container.register(FactorContextRepository, {
        useFactory: (c) => {
          repository ??= new TaggingFactorContextRepository({
            clock: c.resolve(Clock),
            retentionMs: settings.sessionTimeoutMs * 3,
          });
          return repository;
        },
      });
    };
  }

  async deliver(message: OneTimeTokenMessage): Promise<void> {
    const tag = this.scope.getStore();
    if (!tag || message.channel !== "mfa-code") {
      this.untagged++;
      return;
    }
    this.delivered++;
    const waiter = this.waiting.get(tag.mfaSessionId);
    if (waiter) {
      this.waiting.delete(tag.mfaSessionId);
      clearTimeout(waiter.timer);
      waiter.resolve(message.token);
    } else {
      this.codes.set(tag.mfaSessionId, message.token);
    }
  }

  /** The code of `mfaSessionId` (once: it is forgotten when taken). */
  codeFor(mfaSessionId: string, timeoutMs: number): Promise<string> {
    const code = this.codes.get(mfaSessionId);
    if (code !== undefined) {
      this.codes.delete(mfaSessionId);
      return Promise.resolve(code);
    }
    if (this.waiting.has(mfaSessionId)) return Promise.reject(new Error("code already awaited"));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(mfaSessionId);
        reject(new Error(`no MFA code delivered within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(mfaSessionId, { resolve, reject, timer });
    });
  }

  /** Answers a load worker's code requests on `port` until the port closes. */
  serve(port: MessagePort): void {
    port.on("message", (request: CodeRequest) => {
      this.codeFor(request.mfaSessionId, request.timeoutMs).then(
        (code) => port.postMessage({ id: request.id, code } satisfies CodeReply),
        (error: unknown) => port.postMessage({ id: request.id, error: String(error) } satisfies CodeReply),
      );
    });
  }

  /** Codes delivered but never picked up (left by failed flows). */
  get unclaimed(): number {
    return this.codes.size;
  }
}

/** The worker side of `MfaCodeCapture.serve`: asks the server thread for codes over `port`. */
export function portCodeSource(port: MessagePort): CodeSource & { close(): void } {
  let next = 0;
  const pending = new Map<number, { resolve(code: string): void; reject(error: Error): void }>();
  port.on("message", (reply: CodeReply) => {
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if ("code" in reply) waiter.resolve(reply.code);
    else waiter.reject(new Error(reply.error));
  });
  return {
    codeFor(mfaSessionId, timeoutMs) {
      const id = next++;
      return new Promise<string>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        port.postMessage({ id, mfaSessionId, timeoutMs } satisfies CodeRequest);
      });
    },
    close() {
      port.close();
    },
  };
}
