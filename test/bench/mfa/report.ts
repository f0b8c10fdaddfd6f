import type { MachineInfo } from "../login/machine.js";
import type { BenchOptions } from "../login/options.js";
import { cpu, machineRows, maxBy, ms, pct, rate, scryptCell } from "../login/report.js";
import type { MfaResults, PhaseSummary } from "./scenario.js";

/** The MFA section of the report: machine and settings, flow table, split by step, memory, notes. */
export function renderMfaReport(r: MfaResults, machine: MachineInfo, options: BenchOptions): string {
  const s = r.settings;
  const lines: string[] = [];
  lines.push(`## MFA benchmark — ${options.quick ? "quick smoke run (not representative)" : "full run"}`);
  lines.push("");
  lines.push(...machineRows(machine));
  lines.push(`| scrypt (from \`admin\`'s stored hash) | ${scryptCell(r.scrypt)} |`);
  lines.push(
    `| MFA settings (all defaults) | OTT code ${s.otpTokenLength} digits, valid ${s.otpTokenValiditySeconds} s; ` +
      `minimumRejectionDelayMs ${s.minimumRejectionDelayMs} (rejections only); session timeout ` +
      `${s.sessionTimeoutMs / 60_000} min; FactorContextRepository \`${s.repository}\` |`,
  );
  lines.push(
    `| Server | demo platform (\`buildDemoPlatform({ register }, {})\`: defaults plus an in-memory capturing ` +
      `OneTimeTokenDelivery) + \`serveHttp\` on ${r.target} |`,
  );
  lines.push(
    `| Client | closed loop of complete flows, Node fetch (undici) with keep-alive, a new cookie jar per flow, ${
      options.client === "worker" ? "in a worker thread" : "on the server's event loop (inline)"
    }; \`performance.now()\` |`,
  );
  lines.push(
    `| Counts | ${options.mfaCount} flows per level (warm-up excluded); ${options.mfaSessions} pending flows for the memory |`,
  );
  lines.push(`| Commit | ${machine.git} |`);
  lines.push("");

  const runs = [...r.flowRuns, ...r.flowSpreadRuns];
  lines.push(
    "| Scenario | Concurrency | Flows OK | Errors | Time (s) | Flows/s | p50 (ms) | p99 (ms) | Mean (ms) | Max (ms) | CPU own / other (cores) |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
  for (const run of runs) {
    lines.push(
      `| ${run.scenario} | ${run.concurrency} | ${run.ok} | ${run.errorCount} | ${(run.elapsedMs / 1000).toFixed(2)} | ` +
        `${rate(run.rate)} | ${ms(run.p50)} | ${ms(run.p99)} | ${ms(run.mean)} | ${ms(run.max)} | ${cpu(run)} |`,
    );
  }
  lines.push("");
  lines.push("Split of one flow by step, p50 / p99 (ms):");
  lines.push("");
  lines.push(
    "| Scenario | Concurrency | GET /login (page, CSRF) | POST /login (primary: scrypt, policy, code sent) | Code pickup (bench) | POST /login/mfa-ott (code verification, sign-in) | Primary share of the flow (means) |",
  );
  lines.push("|---|---:|---:|---:|---:|---:|---:|");
  for (const run of runs) {
    const p = run.phases;
    lines.push(
      `| ${run.scenario} | ${run.concurrency} | ${split(p.page)} | ${split(p.primary)} | ${split(p.code)} | ` +
        `${split(p.verify)} | ${pct(p.primary.mean / run.mean)} |`,
    );
  }
  lines.push("");

  const m = r.memory;
  lines.push("Memory per pending MFA session (in-process, FactorContextRepository, after full GCs):");
  lines.push("");
  if ("error" in m) {
    lines.push(`Failed: \`${m.error.split("\n")[0]}\``);
  } else {
    lines.push(
      "| Pending flows | Heap used before → after (MB) | Heap per pending flow (bytes) | JSON of one flow (bytes) | Created in |",
    );
    lines.push("|---:|---:|---:|---:|---:|");
    lines.push(
      `| ${m.sessions} | ${mb(m.heapUsedBefore)} → ${mb(m.heapUsedAfter)} | ${Math.round(m.bytesPerSession)} | ` +
        `${m.sampleJsonBytes} | ${(m.createMs / 1000).toFixed(2)} s (${m.batch} at a time) |`,
    );
  }
  lines.push("");

  const notes = mfaNotes(r, machine, options);
  lines.push("Notes:");
  lines.push("");
  for (const note of notes) lines.push(`- ${note}`);
  lines.push("");
  const failed = runs.filter((run) => run.errorCount > 0);
  if (failed.length > 0) {
    lines.push("Errors:");
    lines.push("");
    for (const run of failed) {
      for (const [message, count] of Object.entries(run.errors)) {
        lines.push(`- ${run.scenario}, concurrency ${run.concurrency}: ${count} × \`${message}\``);
      }
    }
    lines.push("");
  }
  return lines.join("\n");
}

function mfaNotes(r: MfaResults, machine: MachineInfo, options: BenchOptions): string[] {
  const notes: string[] = [];
  notes.push(
    "One flow is a new browser signing in as `admin` (ROLE_ADMIN, so the demo's policy asks for a code): " +
      'GET /login (session cookie, CSRF token from `<meta name="_csrf">`), POST /login with the form fields and ' +
      '`Accept: application/json` (200 `{mfaRequired: true, mfaSessionId, state: "OTT_CHALLENGE"}` and the ' +
      "PLATFORM_MFA cookie), the 6-digit code the server handed to its OneTimeTokenDelivery, then POST " +
      "/login/mfa-ott `{token}` with X-CSRF-TOKEN and the cookies (200 `{success: true}`, PLATFORM_MFA cleared). " +
      "Anything else fails the flow. Flows/s counts complete flows over wall time.",
  );
  notes.push(
    "The code comes from an in-memory delivery registered with `buildDemoPlatform`'s `{ register }` (no outbox file). " +
      "Its message names the user, not the MFA session, so the benchmark also registers the default in-memory " +
      "FactorContextRepository subclassed to tag the request's async context with the new session id at `create`; " +
      `the delivery reads the tag. Codes delivered: ${r.capture.delivered}, untagged: ${r.capture.untagged}, ` +
      `never picked up: ${r.capture.unclaimed}. "Code pickup" is ${
        options.client === "worker"
          ? "the MessagePort round trip from the load worker to that capture"
          : "reading that capture"
      } (benchmark overhead, no server work); it is part of the flow time.`,
  );
  const one = r.flowRuns.find((run) => run.concurrency === 1);
  const many = maxBy(r.flowRuns.filter((run) => run.concurrency > 1));
  if (one && one.ok > 0) {
    notes.push(
      `At concurrency 1 a flow takes ${ms(one.mean)} ms on average, ${pct(one.phases.primary.mean / one.mean)} of it ` +
        `in POST /login (${ms(one.phases.primary.mean)} ms: the scrypt verify, the MFA policy, three state-machine ` +
        `steps and the code's HMAC); the code verification (POST /login/mfa-ott: HMAC compare, one state-machine ` +
        `step, the sign-in with a new session) takes ${ms(one.phases.verify.mean)} ms.`,
    );
  }
  if (one && many && one.ok > 0 && many.ok > 0) {
    notes.push(
      `Password logins from one client address are serialised by the authenticator (AttemptSerializer: one at a ` +
        `time per address, at most 32 running or waiting), so POST /login of concurrent flows queue: concurrency ` +
        `${many.concurrency} gives ${rate(many.rate)} flows/s against ${rate(one.rate)} at concurrency 1, and the ` +
        `primary step's p50 grows from ${ms(one.phases.primary.p50)} to ${ms(many.phases.primary.p50)} ms. ` +
        `GET /login and the code verification are not serialised (p50 ${ms(many.phases.verify.p50)} ms at ` +
        `concurrency ${many.concurrency}).`,
    );
  }
  const spread = maxBy(r.flowSpreadRuns);
  const same = spread && r.flowRuns.find((run) => run.concurrency === spread.concurrency);
  if (spread && spread.ok > 0) {
    notes.push(
      `With one address per connection (a second demo server trusting its loopback peer as a proxy, each ` +
        `connection sending its own X-Forwarded-For) ${spread.concurrency} flows' primary steps hash in parallel: ` +
        `${rate(spread.rate)} flows/s${
          same && same.ok > 0 ? ` (${pct(spread.rate / same.rate)} of the single-address rate)` : ""
        }, bounded by the CPU cores (${machine.availableParallelism}) and the libuv pool (${machine.threadpool}).`,
    );
  }
  const verifyP99 = Math.max(...[...r.flowRuns, ...r.flowSpreadRuns].map((run) => run.phases.verify.p99));
  if (Number.isFinite(verifyP99)) {
    notes.push(
      `\`platform.auth.mfa.minimumRejectionDelayMs\` is at its default (${r.settings.minimumRejectionDelayMs} ms); ` +
        `it pads rejections only, and every flow here succeeds: the slowest code verification's p99 is ` +
        `${ms(verifyP99)} ms${verifyP99 >= r.settings.minimumRejectionDelayMs ? " (at or above the delay: check for padding)" : ", below it"}.`,
    );
  }
  const m = r.memory;
  if (!("error" in m)) {
    const perCap = (m.bytesPerSession * 100_000) / 1e6;
    notes.push(
      `Memory: ${Math.round(m.bytesPerSession)} bytes of V8 heap per pending flow (${m.sessions} flows in ` +
        `\`${m.command}\`, heapUsed after full GCs before and after). A pending flow is what the runtime leaves ` +
        `after POST /login: a FactorContext in OTT_CHALLENGE (version ${m.template.version}, history ` +
        `${m.template.history.join(" → ")}, the code's HMAC, the caller binding hash, the primary Authentication) ` +
        `stored by the default InMemoryFactorContextRepository as a structured clone, plus its Map entry. ` +
        `Its JSON is ${m.sampleJsonBytes} bytes. The store keeps at most 100000 flows (≈ ${perCap.toFixed(0)} MB at ` +
        `this size; the oldest are evicted beyond) for ${(r.settings.sessionTimeoutMs * 3) / 60_000} min after ` +
        "their last write; finished flows are deleted at once. Not counted: the HTTP session and CSRF token each " +
        "visitor gets from GET /login, and the client's PLATFORM_MFA cookie.",
    );
    notes.push(
      `How the pending flows were made: one real flow over loopback (GET /login, POST /login as \`admin\`) gave the ` +
        `template, read back from the platform's FactorContextRepository; the ${m.sessions} others took the runtime's ` +
        "own steps without HTTP or scrypt (`newFactorContext` → MFA_REQUIRED_SELECT_FACTOR → `create` → " +
        "FACTOR_SELECTED → `save` → INITIATE_CHALLENGE with `hashMfaCode` of a fresh code → `save`). " +
        (m.shapeDifferences.length === 0
          ? `A synthetic flow has the real one's form (keys, state, version, history, hash lengths; JSON ${m.templateJsonBytes} bytes both).`
          : `Warning: a synthetic flow differs from the real one: ${m.shapeDifferences.join("; ")}.`),
    );
    notes.push(
      `Each state-machine step waits a timer turn (typescript-fsm's \`dispatch\` defers with \`setTimeout\`): ` +
        `one pending flow made alone in-process takes ${ms(m.sequentialMs)} ms, but ${m.batch} at once take ` +
        `${ms((m.createMs / m.sessions) * 1000)} µs each. The waits add a few ms to each request's latency, not CPU; ` +
        "a flow passes four steps (three in POST /login, one in POST /login/mfa-ott).",
    );
  }
  notes.push(
    "The load generator, the server and scrypt share this machine's cores (see the login section's note on " +
      `"CPU own / other"; ${machine.availableParallelism} available).`,
  );
  const busiest = [...r.flowRuns, ...r.flowSpreadRuns]
    .filter((run) => run.elapsedMs >= 1_000)
    .reduce((max, run) => Math.max(max, run.cpu.otherCores ?? 0), 0);
  if (busiest >= 0.25) {
    notes.push(
      `Warning: other processes kept up to ${busiest.toFixed(2)} cores busy during a run; rerun on a quiet machine.`,
    );
  }
  if (options.mfaCount < 100) notes.push("With fewer than 100 flows per level, p99 is the slowest flow.");
  return notes;
}

function split(p: PhaseSummary): string {
  return `${ms(p.p50)} / ${ms(p.p99)}`;
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}
