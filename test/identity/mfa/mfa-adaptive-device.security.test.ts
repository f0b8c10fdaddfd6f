import { CryptoIdGenerator, SystemClock } from "@keyward/core/adapter-kit";
import {
  EventBus,
  type PlatformEvent,
  RiskAnalyzer,
  type RiskAssessment,
  SignInHistoryStore,
  UserRepository,
} from "@keyward/core/ports";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { InMemoryUserRepository } from "../../../packages/core/src/identity/users/in-memory-user-repository.js";
import { InMemorySignInHistoryStore } from "../../../packages/core/src/mfa/adaptive/in-memory-sign-in-history-store.js";
import {
  Browser,
  codeAfter,
  csrfOfSession,
  type IdentityTestServer,
  newOutboxFile,
  primaryForm,
  startMfaServer,
  verify,
} from "./mfa-test-support.js";

const DEVICE_COOKIE = "PLATFORM_DEVICE";
const SECRET = "one-device-cookie-secret-shared-by-every-instance";
const ADAPTIVE = { "platform.auth.mfa.policy": "adaptive" };

/** A server whose adaptive decisions are recorded; `register` may share stores between instances. */
async function server(
  properties: Record<string, unknown>,
  register?: Parameters<typeof startMfaServer>[0]["register"],
): Promise<{ s: IdentityTestServer; assessed: PlatformEvent[]; file: string }> {
  const file = newOutboxFile();
  const s = await startMfaServer({ outbox: file, properties: { ...ADAPTIVE, ...properties }, register });
  const assessed: PlatformEvent[] = [];
  s.platform.resolve(EventBus).on("mfa.adaptive.assessed", (e) => {
    assessed.push(e);
  });
  return { s, assessed, file };
}

/** The signal names of the last assessment. */
function lastSignals(assessed: PlatformEvent[]): string[] {
  const payload = assessed.at(-1)?.payload as { signals: { name: string }[] } | undefined;
  return (payload?.signals ?? []).map((x) => x.name);
}

/** `user`'s JSON form sign-in in `b`, with extra request headers. */
async function signIn(b: Browser, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const csrf = await b.csrfFrom("/login");
  const res = await b.postForm(
    "/login",
    { username: "user", password: "password", _csrf: csrf },
    { accept: "application/json", ...headers },
  );
  return (await res.json()) as Record<string, unknown>;
}

/** The X-Device-Id the SDK of the first browser sends (a UUID from its localStorage). */
const SDK_DEVICE = "3f1c2a9e-7b4d-4c1a-9f00-0123456789ab";

/**
 * A first sign-in of `user` (no history: challenged) from a browser whose SDK sends `X-Device-Id`,
 * completed with the mailed code. Returns the device cookie the completion set, if any.
 */
async function completeFirstSignIn(s: IdentityTestServer, file: string, b = new Browser(s.url)) {
  const csrf = await b.csrfFrom("/login");
  const headers = { accept: "application/json", "x-device-id": SDK_DEVICE };
  const { result, code } = await codeAfter(file, "user", () =>
    b.postForm("/login", { username: "user", password: "password", _csrf: csrf }, headers),
  );
  expect(await result.json()).toMatchObject({ mfaRequired: true });
  const done = await verify(b, await csrfOfSession(b), code);
  expect(done.status).toBe(200);
  const setCookie = done.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`));
  return { b, cookie: b.cookies.get(DEVICE_COOKIE) ?? "", setCookie };
}

/** A fresh browser holding only the device cookie `value`. */
function browserWithDevice(s: IdentityTestServer, value: string): Browser {
  const b = new Browser(s.url);
  b.cookies.set(DEVICE_COOKIE, value);
  return b;
}

const scoring = (score: number) => ({
  analyze: async (): Promise<RiskAssessment> => ({ score, signals: [], analyzer: "stub" }),
});

describe("adaptive MFA: the floor for required authorities (issue #12 item 4)", () => {
  const servers: IdentityTestServer[] = [];
  afterEach(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  it("an administrator with a low score is challenged; a plain user is not", async () => {
    const { s } = await server({ "platform.auth.mfa.requiredAuthorities": "ROLE_ADMIN" }, (c) =>
      c.registerInstance(RiskAnalyzer, scoring(0.05)),
    );
    servers.push(s);
    const admin = await primaryForm(new Browser(s.url), "admin", "admin", true);
    expect(await admin.json()).toMatchObject({ mfaRequired: true, state: "OTT_CHALLENGE" });
    const user = await primaryForm(new Browser(s.url), "user", "password", true);
    expect(await user.json()).toMatchObject({ success: true });
  });

  it("allow-skip-for-required-authorities=true lets a low-scoring administrator skip MFA", async () => {
    const { s } = await server(
      {
        "platform.auth.mfa.requiredAuthorities": "ROLE_ADMIN",
        "platform.auth.mfa.adaptive.allow-skip-for-required-authorities": true,
      },
      (c) => c.registerInstance(RiskAnalyzer, scoring(0.05)),
    );
    servers.push(s);
    const admin = await primaryForm(new Browser(s.url), "admin", "admin", true);
    expect(await admin.json()).toMatchObject({ success: true });
  });
});

describe("adaptive MFA: a device is known only by its signed cookie (issue #12 item 4)", () => {
  let s: IdentityTestServer;
  let assessed: PlatformEvent[];
  let cookie: string;
  let setCookie: string | undefined;
  let known: Browser;
  beforeAll(async () => {
    const started = await server({ "platform.auth.device-cookie.secret": SECRET });
    ({ s, assessed } = started);
    ({ b: known, cookie, setCookie } = await completeFirstSignIn(s, started.file));
  });
  afterAll(() => s.close());

  it("a completed sign-in issues a signed, HttpOnly, SameSite=Lax, long-lived device cookie", () => {
    expect(cookie).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
    expect(setCookie).toMatch(/;\s*HttpOnly/i);
    expect(setCookie).toMatch(/;\s*SameSite=Lax/i);
    expect(setCookie).toMatch(/;\s*Path=\//i);
    expect(setCookie).toMatch(/;\s*Max-Age=31536000/i);
  });

  it("the browser holding the issued cookie is a known device (score 0)", async () => {
    expect(await signIn(known, { "x-device-id": SDK_DEVICE })).toMatchObject({ success: true });
    expect(lastSignals(assessed)).toEqual([]);
  });

  it("the X-Device-Id header alone is a new device, even the value a known browser sends", async () => {
    const id = cookie.slice(0, cookie.indexOf("."));
    for (const hint of [SDK_DEVICE, id, cookie]) {
      await signIn(new Browser(s.url), { "x-device-id": hint });
      expect(lastSignals(assessed), hint).toContain("new-device");
    }
  });

  it("forged, unsigned and tampered device cookies are a new device", async () => {
    const dot = cookie.indexOf(".");
    const id = cookie.slice(0, dot);
    const mac = cookie.slice(dot + 1);
    const flip = (x: string, i: number) => x.slice(0, i) + (x[i] === "A" ? "B" : "A") + x.slice(i + 1);
    for (const value of [
      id,
      `${id}.${"A".repeat(43)}`,
      `${flip(id, 5)}.${mac}`,
      `${id}.${flip(mac, 7)}`,
      `${"B".repeat(22)}.${mac}`,
    ]) {
      // Even with the X-Device-Id the known browser sends.
      await signIn(browserWithDevice(s, value), { "x-device-id": SDK_DEVICE });
      expect(lastSignals(assessed), value).toContain("new-device");
    }
  });

  it("a bearer client without cookies is always a new device, even after it signed in before", async () => {
    const bearerSignIn = async () => {
      const res = await fetch(`${s.url}/api/login`, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", "x-device-id": "cli-1" },
        body: JSON.stringify({ username: "user", password: "password" }),
      });
      return {
        status: res.status,
        cookies: res.headers.getSetCookie(),
        body: (await res.json()) as Record<string, unknown>,
      };
    };
    for (let i = 0; i < 2; i++) {
      const answer = await bearerSignIn();
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ accessToken: expect.any(String) });
      // The stateless chain keeps its promise of no cookies: it issues no device cookie either.
      expect(answer.cookies).toEqual([]);
      expect(lastSignals(assessed)).toContain("new-device");
    }
  });
});

describe("adaptive MFA: the device cookie across instances (issue #12 item 4)", () => {
  const servers: IdentityTestServer[] = [];
  afterAll(async () => {
    for (const s of servers.splice(0)) await s.close();
  });

  it("a cookie from another instance with the same configured key is known; another key's is not", async () => {
    // Instances of one deployment share the user and history stores (as a database would).
    const clock = new SystemClock();
    const users = new InMemoryUserRepository({ ids: new CryptoIdGenerator(), clock });
    const history = new InMemorySignInHistoryStore({ clock });
    const shared: Parameters<typeof startMfaServer>[0]["register"] = (c) => {
      c.registerInstance(UserRepository, users);
      c.registerInstance(SignInHistoryStore, history);
    };
    const a = await server({ "platform.auth.device-cookie.secret": SECRET }, shared);
    const b = await server({ "platform.auth.device-cookie.secret": SECRET }, shared);
    const other = await server({ "platform.auth.device-cookie.secret": `${SECRET}-other` }, shared);
    const unconfigured = await server({}, shared);
    servers.push(a.s, b.s, other.s, unconfigured.s);

    const { cookie } = await completeFirstSignIn(a.s, a.file);
    expect(await signIn(browserWithDevice(b.s, cookie))).toMatchObject({ success: true });
    expect(lastSignals(b.assessed)).toEqual([]);
    for (const foreign of [other, unconfigured]) {
      await signIn(browserWithDevice(foreign.s, cookie));
      expect(lastSignals(foreign.assessed)).toContain("new-device");
    }
  });
});
