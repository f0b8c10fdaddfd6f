import { Script } from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import { buildPlatformSdk } from "../../packages/sdk-browser/build/build-sdk.js";
import { fromBase64url, toBase64url } from "../../packages/sdk-browser/src/base64url.js";

// The /passkeys page's script (`/js/platform-passkeys-page.js`, from src/pages/passkeys-page.ts), as
// built, run against a fake page: what it sends, which ceremonies it starts, what it shows.

let PASSKEYS_PAGE_SCRIPT = "";
beforeAll(async () => {
  const built = await buildPlatformSdk();
  PASSKEYS_PAGE_SCRIPT = built.files.find((f) => f.name === "platform-passkeys-page.js")?.contents ?? "";
});

/** A DOM element as far as the script uses one. */
interface FakeElement {
  value: string;
  textContent: string;
  disabled: boolean;
  dataset: Record<string, string>;
  attributes: Record<string, string>;
  children: FakeElement[];
  listeners: Record<string, () => Promise<void>>;
  addEventListener(type: string, listener: () => Promise<void>): void;
  setAttribute(name: string, value: string): void;
  getAttribute(name: string): string | undefined;
  appendChild(child: FakeElement): void;
}

function element(dataset: Record<string, string> = {}): FakeElement {
  const el: FakeElement = {
    value: "",
    textContent: "",
    disabled: false,
    dataset,
    attributes: {},
    children: [],
    listeners: {},
    addEventListener: (type, listener) => {
      el.listeners[type] = listener;
    },
    setAttribute: (name, value) => {
      el.attributes[name] = value;
    },
    getAttribute: (name) => el.attributes[name],
    appendChild: (child) => {
      el.children.push(child);
    },
  };
  return el;
}

const bytes = (...values: number[]) => new Uint8Array(values).buffer;

/** Runs the script against a fake page; records fetches and WebAuthn calls in order. */
async function fakePage(options: { authenticated: boolean; redirectUrl?: string }) {
  const config = element({ authenticated: String(options.authenticated) });
  const elements: Record<string, FakeElement> = { "platform-page-config": config };
  for (const id of [
    "passkeyUsername",
    "passkeySignInButton",
    "passkeyRegisterButton",
    "passkeyLabel",
    "passkeyList",
    "passkeyStatus",
  ]) {
    elements[id] = element();
  }
  const log: {
    kind: string;
    url?: string;
    method?: string;
    body?: unknown;
    csrf?: string;
    mediation?: string;
  }[] = [];
  const location = { assigned: "" };
  const responses: Record<string, unknown> = {
    "/webauthn/authenticate/options": { challenge: "AAEC", rpId: "localhost", allowCredentials: [] },
    "/webauthn/register/options": {
      challenge: "AAEC",
      rp: { id: "localhost", name: "x" },
      user: { id: "AQID", name: "alice", displayName: "alice" },
      pubKeyCredParams: [{ alg: -7, type: "public-key" }],
      excludeCredentials: [{ id: "BAU", type: "public-key" }],
    },
    "/login/webauthn": { success: true, redirectUrl: options.redirectUrl ?? "/home" },
    "/webauthn/register": { id: "BgcI", label: "Laptop", createdAt: "2026-01-01T00:00:00.000Z" },
    "/webauthn/credentials": [
      {
        id: "BgcI",
        label: "Laptop",
        createdAt: "2026-01-01T00:00:00.000Z",
        lastUsedAt: null,
        backedUp: false,
        transports: ["internal"],
      },
    ],
  };
  const credential = (response: Record<string, unknown>) => ({
    id: "BgcI",
    rawId: bytes(6, 7, 8),
    type: "public-key",
    getClientExtensionResults: () => ({}),
    response,
  });
  const context = {
    document: {
      readyState: "complete",
      getElementById: (id: string) => elements[id] ?? null,
      querySelector: (selector: string) => ({
        getAttribute: () => (selector.includes("_csrf_header") ? "X-CSRF-TOKEN" : "csrf-token-1"),
      }),
      createElement: () => element(),
    },
    window: { location: { assign: (url: string) => (location.assigned = url) }, PublicKeyCredential: {} },
    PublicKeyCredential: { isConditionalMediationAvailable: async () => true },
    AbortController,
    atob,
    btoa,
    fetch: async (url: string, init: { method: string; headers: Record<string, string>; body?: string }) => {
      log.push({
        kind: "fetch",
        url,
        method: init.method,
        body: init.body === undefined ? undefined : JSON.parse(init.body),
        csrf: init.headers["X-CSRF-TOKEN"],
      });
      return { ok: true, status: 200, text: async () => JSON.stringify(responses[url]) };
    },
    navigator: {
      credentials: {
        get: (o: { mediation?: string; signal?: AbortSignal; publicKey: { challenge: ArrayBuffer } }) => {
          log.push({ kind: "get", mediation: o.mediation ?? "modal" });
          expect(Object.prototype.toString.call(o.publicKey.challenge)).toBe("[object ArrayBuffer]");
          if (o.mediation === "conditional") {
            return new Promise((_, reject) => {
              o.signal?.addEventListener("abort", () =>
                reject(Object.assign(new Error("aborted"), { name: "AbortError" })),
              );
            });
          }
          return Promise.resolve(
            credential({
              clientDataJSON: bytes(123, 125),
              authenticatorData: bytes(1),
              signature: bytes(2),
              userHandle: bytes(3),
            }),
          );
        },
        create: async (o: {
          publicKey: { user: { id: ArrayBuffer }; excludeCredentials: { id: ArrayBuffer }[] };
        }) => {
          log.push({ kind: "create" });
          expect(Array.from(new Uint8Array(o.publicKey.user.id))).toEqual([1, 2, 3]);
          expect(Array.from(new Uint8Array(o.publicKey.excludeCredentials[0]!.id))).toEqual([4, 5]);
          return credential({
            clientDataJSON: bytes(123, 125),
            attestationObject: bytes(9),
            getTransports: () => ["internal"],
          });
        },
      },
    },
  };
  new Script(PASSKEYS_PAGE_SCRIPT).runInNewContext(context);
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { elements, config, log, location };
}

describe("passkeys page script", () => {
  it("starts autofill (conditional mediation) on load for an anonymous visitor", async () => {
    const page = await fakePage({ authenticated: false });
    expect(page.config.attributes["data-conditional"]).toBe("pending");
    expect(page.log).toEqual([
      {
        kind: "fetch",
        url: "/webauthn/authenticate/options",
        method: "POST",
        body: {},
        csrf: "csrf-token-1",
      },
      { kind: "get", mediation: "conditional" },
    ]);
  });

  it("the modal button aborts autofill first, then signs in with the username and follows redirectUrl", async () => {
    const page = await fakePage({ authenticated: false });
    page.elements.passkeyUsername!.value = " alice ";
    await page.elements.passkeySignInButton!.listeners.click!();
    expect(page.config.attributes["data-conditional"]).toBe("aborted");
    expect(page.log.slice(2)).toEqual([
      {
        kind: "fetch",
        url: "/webauthn/authenticate/options",
        method: "POST",
        body: { username: "alice" },
        csrf: "csrf-token-1",
      },
      { kind: "get", mediation: "modal" },
      {
        kind: "fetch",
        url: "/login/webauthn",
        method: "POST",
        csrf: "csrf-token-1",
        body: {
          id: "BgcI",
          rawId: "BgcI",
          type: "public-key",
          clientExtensionResults: {},
          response: { clientDataJSON: "e30", authenticatorData: "AQ", signature: "Ag", userHandle: "Aw" },
        },
      },
    ]);
    expect(page.location.assigned).toBe("/home");
  });

  it("never follows a redirectUrl to another site", async () => {
    const page = await fakePage({ authenticated: false, redirectUrl: "//evil.example/" });
    await page.elements.passkeySignInButton!.listeners.click!();
    expect(page.location.assigned).toBe("/");
  });

  it("for a signed-in user: no autofill, lists passkeys, registers with a label", async () => {
    const page = await fakePage({ authenticated: true });
    expect(page.config.attributes["data-conditional"]).toBe("unavailable");
    expect(page.elements.passkeyList!.attributes["data-count"]).toBe("1");
    page.elements.passkeyLabel!.value = "Laptop";
    await page.elements.passkeyRegisterButton!.listeners.click!();
    const posted = page.log.find((l) => l.url === "/webauthn/register");
    expect(posted).toEqual({
      kind: "fetch",
      url: "/webauthn/register",
      method: "POST",
      csrf: "csrf-token-1",
      body: {
        label: "Laptop",
        response: {
          id: "BgcI",
          rawId: "BgcI",
          type: "public-key",
          clientExtensionResults: {},
          response: { clientDataJSON: "e30", attestationObject: "CQ", transports: ["internal"] },
        },
      },
    });
    expect(page.elements.passkeyStatus!.textContent).toBe('Passkey "Laptop" registered.');
    expect(page.elements.passkeyStatus!.attributes["data-kind"]).toBe("success");
    expect(page.log.filter((l) => l.url === "/webauthn/credentials")).toEqual([
      { kind: "fetch", url: "/webauthn/credentials", method: "GET", body: undefined, csrf: undefined },
      { kind: "fetch", url: "/webauthn/credentials", method: "GET", body: undefined, csrf: undefined },
    ]);
  });

  it("drives the ceremonies the page needs, with no import, require or innerHTML", () => {
    for (const needle of [
      "navigator.credentials.create",
      "navigator.credentials.get",
      'mediation:"conditional"',
      "isConditionalMediationAvailable",
      "AbortController",
      '"X-CSRF-TOKEN"',
      '"_csrf"',
      "location.assign",
      '"DELETE"',
    ]) {
      expect(PASSKEYS_PAGE_SCRIPT).toContain(needle);
    }
    expect(PASSKEYS_PAGE_SCRIPT).not.toMatch(/\bimport\b|\brequire\(|innerHTML/);
    expect(() => new Script(PASSKEYS_PAGE_SCRIPT)).not.toThrow();
  });
});

describe("the base64url the page script bundles", () => {
  it("converts base64url and ArrayBuffers like the server does", () => {
    for (const size of [0, 1, 2, 3, 16, 32, 33]) {
      const bytes = Buffer.from(Array.from({ length: size }, (_, i) => (i * 37 + 250) % 256));
      const encoded = bytes.toString("base64url");
      expect(Buffer.from(fromBase64url(encoded)).equals(bytes)).toBe(true);
      expect(toBase64url(new Uint8Array(bytes).buffer)).toBe(encoded);
    }
  });
});
