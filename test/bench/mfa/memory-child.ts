import "reflect-metadata";
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { serveHttp } from "@keyward/adapters-http";
import { buildDemoPlatform, DEMO_USERS } from "@keyward/cli";
import { mfaSettingsFromProperties } from "@keyward/core/adapter-kit";
import {
  Clock,
  type FactorContext,
  FactorContextRepository,
  IdGenerator,
  OneTimeTokenDelivery,
} from "@keyward/core/ports";
import { generateMfaCode, hashMfaCode } from "../../../packages/core/src/mfa/codes/mfa-code.js";
import { newFactorContext } from "../../../packages/core/src/mfa/state/factor-context.js";
import { MfaStateMachine } from "../../../packages/core/src/mfa/state/mfa-state-machine.js";
import { startMfaFlow } from "./flow-load.js";
import type { MemoryChildResult } from "./memory.js";

/**
 * Child-process entry of "memory per pending MFA session" (started by memory.ts with
 * `node --expose-gc --import tsx`, argv[2] = how many sessions). Builds the demo platform, makes one
 * real pending flow for `admin` over loopback (GET /login, POST /login: one scrypt) and reads its
 * FactorContext back as the template; then takes M more flows through the same steps the runtime
 * takes (newFactorContext → MFA_REQUIRED_SELECT_FACTOR → create → FACTOR_SELECTED → save →
 * INITIATE_CHALLENGE with a code hash → save) into the platform's own FactorContextRepository, and
 * compares the heap after full GCs before and after. Sends a MemoryChildResult over IPC.
 */
async function main(): Promise<MemoryChildResult> {
  const gc = globalThis.gc;
  if (!gc) throw new Error("memory-child.ts needs node --expose-gc");
  const sessions = Number(process.argv[2]);
  if (!Number.isSafeInteger(sessions) || sessions < 1)
    throw new Error(`bad session count ${process.argv[2]}`);

  const demo = await buildDemoPlatform(
    { register: (c) => c.registerInstance(OneTimeTokenDelivery, { deliver: async () => {} }) },
    {},
  );
  const { platform } = demo;
  try {
    const repository = platform.resolve(FactorContextRepository);
    const clock = platform.resolve(Clock);
    const ids = platform.resolve(IdGenerator);
    const settings = mfaSettingsFromProperties(platform.properties);
    const machine = new MfaStateMachine({
      clock,
      sessionTimeoutMs: settings.sessionTimeoutMs,
      challengeTimeoutMs: settings.challengeTimeoutMs,
      maxRetryAttempts: settings.maxRetryAttempts,
      accountLockoutDurationMs: settings.accountLockoutDurationMs,
    });

    const template = await realPendingContext(demo, repository);

    const pend = async (): Promise<string> => {
      const mfaSessionId = ids.secret(32);
      const now = clock.now();
      let ctx = newFactorContext({
        mfaSessionId,
        flowTypeName: template.flowTypeName,
        // What MfaCallerBinding stores: the SHA-256 (base64url) of a fresh 32-byte secret.
        callerBinding: createHash("sha256").update(ids.secret(32)).digest("base64url"),
        primary: template.primary,
        requiredFactors: template.requiredFactors,
        availableFactors: template.availableFactors,
        now,
      });
      ctx = await machine.fire(ctx, "MFA_REQUIRED_SELECT_FACTOR", { detail: template.decisionReason });
      ctx = await repository.create(ctx);
      ctx = await repository.save(await machine.fire(ctx, "FACTOR_SELECTED", { factor: "OTT" }));
      const code = generateMfaCode(settings.otpTokenLength);
      const challenge = {
        factor: "OTT" as const,
        codeHash: hashMfaCode(code, mfaSessionId, { secret: "bench-key" }),
        issuedAt: now,
        expiresAt: now + settings.otpTokenValiditySeconds * 1000,
      };
      await repository.save(await machine.fire(ctx, "INITIATE_CHALLENGE", { challenge }));
      return mfaSessionId;
    };

    // Warm the code paths outside the measurement, one flow at a time: each takes at least three
    // timer turns (typescript-fsm's dispatch defers every transition with setTimeout).
    const warmup = 50;
    const warmStarted = performance.now();
    for (let i = 0; i < warmup; i++) await pend();
    const sequentialMs = (performance.now() - warmStarted) / warmup;
    const sample = await repository.find(await pend());
    if (!sample) throw new Error("a synthetic pending flow was not stored");

    await settle(gc);
    const before = process.memoryUsage();
    const started = performance.now();
    let last = "";
    for (let done = 0; done < sessions; done += BATCH) {
      const batch = await Promise.all(Array.from({ length: Math.min(BATCH, sessions - done) }, pend));
      last = batch[batch.length - 1] ?? last;
    }
    const createMs = performance.now() - started;
    await settle(gc);
    const after = process.memoryUsage();

    const check = await repository.find(last);
    if (check?.state !== "OTT_CHALLENGE") throw new Error("the last pending flow is not in OTT_CHALLENGE");
    return {
      sessions,
      heapUsedBefore: before.heapUsed,
      heapUsedAfter: after.heapUsed,
      externalDelta: after.external - before.external,
      rssDelta: after.rss - before.rss,
      createMs,
      batch: BATCH,
      sequentialMs,
      templateJsonBytes: Buffer.byteLength(JSON.stringify(template)),
      sampleJsonBytes: Buffer.byteLength(JSON.stringify(sample)),
      shapeDifferences: shapeDifferences(template, sample),
      template: {
        state: template.state,
        version: template.version,
        history: template.history.map((h) => h.event),
        primaryFactors: template.primary.factors.map((f) => f.type),
      },
    };
  } finally {
    await platform.stop();
  }
}

/** Flows created at once (the timer waits overlap; the memory they leave is the same). */
const BATCH = 256;

/** One real pending flow over loopback (the real runtime, `admin`), read back from the store. */
async function realPendingContext(
  demo: Awaited<ReturnType<typeof buildDemoPlatform>>,
  repository: FactorContextRepository,
): Promise<FactorContext> {
  const admin = DEMO_USERS.find((u) => u.username === "admin");
  if (!admin) throw new Error("the demo has no admin user");
  const server = await serveHttp(demo.app, { port: 0, hostname: "127.0.0.1" });
  try {
    const flow = await startMfaFlow({
      base: new URL(`http://127.0.0.1:${server.port}`),
      credentials: { username: admin.username, password: admin.password },
      timeoutMs: 30_000,
    });
    const ctx = await repository.find(flow.mfaSessionId);
    if (ctx?.state !== "OTT_CHALLENGE") throw new Error("the real flow is not pending in OTT_CHALLENGE");
    return ctx;
  } finally {
    await server.close(true);
  }
}

/** Where a synthetic pending flow differs in form from the real one (keys, history, challenge). */
function shapeDifferences(real: FactorContext, synthetic: FactorContext): string[] {
  const out: string[] = [];
  const keys = (o: object) => Object.keys(o).sort().join(",");
  if (keys(real) !== keys(synthetic)) out.push(`keys: real ${keys(real)} / synthetic ${keys(synthetic)}`);
  for (const field of ["state", "version", "flowTypeName", "requiredFactors", "currentFactor"] as const) {
    if (real[field] !== synthetic[field])
      out.push(`${field}: ${String(real[field])} / ${String(synthetic[field])}`);
  }
  const events = (c: FactorContext) => c.history.map((h) => `${h.event}:${keys(h)}`).join(" ");
  if (events(real) !== events(synthetic)) out.push(`history: ${events(real)} / ${events(synthetic)}`);
  if (keys(real.challenge ?? {}) !== keys(synthetic.challenge ?? {})) out.push("challenge keys differ");
  if (real.callerBinding.length !== synthetic.callerBinding.length) out.push("callerBinding length differs");
  if (real.challenge?.codeHash?.length !== synthetic.challenge?.codeHash?.length)
    out.push("codeHash length differs");
  return out;
}

/** Full GCs with turns of the event loop between them, so that finalisation settles. */
async function settle(gc: () => void): Promise<void> {
  for (let i = 0; i < 4; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

main().then(
  (result) => {
    process.send?.({ ok: true, result }, () => process.disconnect());
  },
  (error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.send?.({ ok: false, error: message }, () => process.disconnect());
    process.exitCode = 1;
  },
);
