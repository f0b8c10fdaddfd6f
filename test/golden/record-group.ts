import { writeFileSync } from "node:fs";
import { DEMO_USERS } from "@keyward/cli";
import { ManualClock } from "@keyward/core/testing";
import { Clock, OneTimeTokenDelivery } from "@keyward/core/ports";
import { SoftwareAuthenticator } from "../../packages/core/src/identity/passkey/software-authenticator.test-support.js";
import { startDemo, type RunningDemo } from "../support/demo-server.js";
import { CookieJar, send } from "./golden-client.js";
import type {
  Given,
  GoldenGroup,
  GoldenRequest,
  GoldenScenario,
  GoldenStep,
  PasskeyStep,
  RecordedGroup,
  RecordedScenario,
  RecordedStep,
} from "./golden-types.js";
import { Normaliser } from "./normalise-answer.js";
import { RecordingDelivery } from "./recording-delivery.js";
import { captured, durationMs, renderRequest, resolveRequest, toRaw } from "./request-templates.js";

/** Where the demo's ManualClock starts: far from the wall clock, so the two are never confused. */
export const GOLDEN_T0 = Date.UTC(2040, 0, 1);

/** With GOLDEN_TIMING=1, prints where the replay's time goes (to stderr). */
function timing(line: string): void {
  if (process.env.GOLDEN_TIMING) console.error(line);
}

/** The state one scenario's steps share. */
interface ScenarioState {
  /** False for a scenario of cookieless API clients. */
  cookies: boolean;
  norm: Normaliser;
  jars: Map<string, CookieJar>;
  vars: Map<string, string>;
  /** The scenario's passkey authenticator, made on first use. */
  device?: SoftwareAuthenticator;
}

/** A running group: its demo, clock, deliveries and the deliveries already read. */
interface GroupRun {
  demo: RunningDemo;
  port: number;
  clock: ManualClock;
  outbox: RecordingDelivery;
}

/**
 * Runs every scenario of `group`, in order, against one fresh demo (`startDemo` with a ManualClock at
 * {@link GOLDEN_T0}) and returns the normalised answers.
 */
export async function recordGroup(group: GoldenGroup): Promise<RecordedGroup> {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const clock = new ManualClock(GOLDEN_T0);
  const outbox = new RecordingDelivery();
  const demo = await startDemo(
    group.env ?? {},
    // The answers pin the platform without the AI: its decisions land off the request path, at a
    // time no recording can fix. test/decisions covers the demo with it on.
    { "platform.security.decision.enabled": false },
    {
      overrides: (o) => {
        o.override(Clock, { useValue: clock });
        o.override(OneTimeTokenDelivery, { useValue: outbox });
      },
    },
  );
  const port = Number(new URL(demo.base).port);
  const run: GroupRun = { demo, port, clock, outbox };
  const started = performance.now();
  try {
    const scenarios: RecordedScenario[] = [];
    for (const scenario of group.scenarios) {
      const t = performance.now();
      scenarios.push(await recordScenario(run, scenario));
      timing(`${group.name} › ${scenario.name}: ${Math.round(performance.now() - t)} ms`);
    }
    const cpu = process.cpuUsage(cpu0);
    timing(
      `${group.name}: demo start ${Math.round(started - t0)} ms, total ${Math.round(performance.now() - t0)} ms, ` +
        `CPU ${Math.round((cpu.user + cpu.system) / 1000)} ms`,
    );
    return {
      group: group.name,
      description: group.description,
      ...(group.env ? { env: group.env } : {}),
      scenarios,
    };
  } finally {
    await demo.close();
  }
}

async function recordScenario(run: GroupRun, scenario: GoldenScenario): Promise<RecordedScenario> {
  // Deliveries an earlier scenario caused and never read are not this scenario's (some are handed
  // over just after the answer was read: let them land first).
  await run.outbox.skipPending();
  const state: ScenarioState = {
    cookies: scenario.cookies !== false,
    norm: new Normaliser(run.port, GOLDEN_T0),
    jars: new Map(),
    vars: new Map(),
  };
  for (const [actor, given] of Object.entries(scenario.given ?? {})) await signIn(run, state, actor, given);
  const steps: RecordedStep[] = [];
  for (const step of scenario.steps) {
    try {
      if ("passkey" in step) steps.push(...(await recordCeremony(run, state, step)));
      else steps.push(await recordStep(run, state, step));
    } catch (cause) {
      if (process.env.GOLDEN_DEBUG) {
        writeFileSync(
          process.env.GOLDEN_DEBUG,
          JSON.stringify({ steps, outbox: run.outbox.messages }, null, 2),
        );
      }
      throw new Error(`${scenario.name} › ${step.name}: ${(cause as Error).message}`, { cause });
    }
  }
  return {
    scenario: scenario.name,
    ...(scenario.cookies === false ? { cookies: false as const } : {}),
    ...(scenario.given ? { given: scenario.given } : {}),
    steps,
  };
}

async function recordStep(
  run: GroupRun,
  state: ScenarioState,
  step: Exclude<GoldenStep, PasskeyStep>,
): Promise<RecordedStep> {
  if ("advanceClock" in step) {
    run.clock.advance(durationMs(step.advanceClock));
    return { step: step.name, clock: `+${step.advanceClock}` };
  }
  if ("outbox" in step) {
    const line = await run.outbox.next(step.outbox.username, step.outbox.channel);
    const channel = String(line.channel);
    const token = String(line.token);
    state.norm.learn(channel === "mfa-code" ? "code" : `${channel}-token`, token);
    for (const [name, field] of Object.entries(step.capture ?? {})) state.vars.set(name, line[field]);
    const { at, channel: ch, to, username, link } = line;
    const shown = { at, channel: ch, to, username, token, link };
    return { step: step.name, outbox: state.norm.json(shown) as Record<string, unknown> };
  }
  const actor = step.actor ?? "browser";
  const request = resolveRequest(step.request, state.vars, actor, (wrong) =>
    state.norm.learn("wrong-code", wrong),
  );
  const answer = await send(run.port, toRaw(request), state.cookies ? jarOf(state, actor) : undefined);
  const recordedRequest = renderRequest(state.norm, request);
  const recordedAnswer = state.norm.answer(answer);
  for (const [name, capture] of Object.entries(step.capture ?? {})) {
    state.vars.set(name, captured(answer, capture, `${step.name} capture ${name}`));
  }
  return { step: step.name, request: recordedRequest, answer: recordedAnswer };
}

async function recordCeremony(
  run: GroupRun,
  state: ScenarioState,
  step: PasskeyStep,
): Promise<RecordedStep[]> {
  state.device ??= new SoftwareAuthenticator(`http://localhost:${run.port}`);
  const device = state.device;
  const register = step.passkey === "register";
  const actor = step.actor ?? "browser";
  const jar = state.cookies ? jarOf(state, actor) : undefined;
  const fill = (r: GoldenRequest) => resolveRequest(r, state.vars, actor, () => {});
  const headers = { accept: "application/json", ...step.headers };
  const optionsRequest = fill({
    method: "POST",
    path: register ? "/webauthn/register/options" : "/webauthn/authenticate/options",
    headers,
    json: {},
  });
  const optionsAnswer = await send(run.port, toRaw(optionsRequest), jar);
  const first: RecordedStep = {
    step: `${step.name}: options`,
    request: renderRequest(state.norm, optionsRequest),
    answer: state.norm.answer(optionsAnswer),
  };
  if (optionsAnswer.status !== 200) return [first];
  const options = JSON.parse(optionsAnswer.body.toString("utf8"));
  const credential = register ? device.createCredential(options) : device.getAssertion(options);
  state.norm.learn("credential", credential.id);
  const responseRequest = fill({
    method: "POST",
    path: register ? "/webauthn/register" : "/login/webauthn",
    headers,
    json: register ? { response: credential, label: "golden key" } : credential,
  });
  const responseAnswer = await send(run.port, toRaw(responseRequest), jar);
  const shown = register
    ? "<registration response of the software authenticator>"
    : "<assertion of the software authenticator>";
  return [
    first,
    {
      step: `${step.name}: ${register ? "registration" : "assertion"}`,
      request: { ...renderRequest(state.norm, { ...responseRequest, json: undefined }), json: shown },
      answer: state.norm.answer(responseAnswer),
    },
  ];
}

function jarOf(state: ScenarioState, actor: string): CookieJar {
  let jar = state.jars.get(actor);
  if (!jar) {
    jar = new CookieJar();
    state.jars.set(actor, jar);
  }
  return jar;
}

/** Signs `actor` in as `given` says (not recorded) and teaches the normaliser its values. */
async function signIn(run: GroupRun, state: ScenarioState, actor: string, given: Given): Promise<void> {
  const jar = jarOf(state, actor);
  if (given === "anonymous") return;
  const [kind, username] = given.split(":") as ["session" | "bearer", string];
  const password = DEMO_USERS.find((u) => u.username === username)?.password;
  if (!password) throw new Error(`no demo user ${username}`);
  const call = async (method: string, path: string, body?: Partial<GoldenRequest>, headers = {}) => {
    const answer = await send(run.port, toRaw({ method, path, headers, ...body }), jar);
    if (answer.status >= 400) {
      throw new Error(`sign-in of ${actor} (${given}): ${method} ${path} answered ${answer.status}`);
    }
    return answer;
  };
  if (kind === "session") {
    let csrf = captured(await call("GET", "/login"), "html:csrf", "login page");
    const login = await call("POST", "/login", { form: { username, password, _csrf: csrf } });
    if (login.headers.location === "/mfa/challenge/ott") {
      const code = String((await run.outbox.next(username, "mfa-code")).token);
      csrf = captured(await call("GET", "/mfa/challenge/ott"), "html:csrf", "code page");
      await call("POST", "/login/mfa-ott", { form: { token: code, _csrf: csrf } });
    }
    csrf = captured(await call("GET", "/"), "html:csrf", "home page");
    state.vars.set(`${actor}.csrf`, csrf);
    state.norm.learn(`${actor}.csrf`, csrf);
    const session = /PLATFORM_SESSION=([^;]+)/.exec(jar.header() ?? "")?.[1];
    if (session) state.norm.learn(`${actor}.session`, session);
    return;
  }
  const login = await call("POST", "/api/login", { json: { username, password } });
  let tokens = JSON.parse(login.body.toString("utf8")) as Record<string, unknown>;
  if (tokens.mfaRequired) {
    const code = String((await run.outbox.next(username, "mfa-code")).token);
    const endpoints = tokens.endpoints as { verifyOtt: string };
    const verified = await call(
      "POST",
      endpoints.verifyOtt,
      { json: { token: code } },
      {
        "x-mfa-session-id": String(tokens.mfaSessionId),
        "x-mfa-binding": String(tokens.mfaBinding),
      },
    );
    tokens = JSON.parse(verified.body.toString("utf8")) as Record<string, unknown>;
  }
  const access = String(tokens.accessToken);
  const refresh = String(tokens.refreshToken);
  state.vars.set(`${actor}.access`, access);
  state.vars.set(`${actor}.refresh`, refresh);
  state.norm.learn(`${actor}.access`, access);
  state.norm.learn(`${actor}.refresh`, refresh);
}
