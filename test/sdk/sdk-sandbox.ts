import { type Context, createContext, runInContext } from "node:vm";
import { buildPlatformSdk, SDK_IIFE_FILE } from "../../packages/sdk-browser/build/build-sdk.js";

/** The IIFE of the SDK, built once per test file. */
let built: Promise<string> | undefined;
export function builtIife(): Promise<string> {
  built ??= buildPlatformSdk().then((b) => {
    const file = b.files.find((f) => f.name === SDK_IIFE_FILE);
    if (!file) throw new Error(`no ${SDK_IIFE_FILE}`);
    return file.contents;
  });
  return built;
}

/** A Web Storage in memory; `blocked` makes every call throw, as a privacy mode does. */
export class FakeStorage {
  readonly items = new Map<string, string>();
  blocked = false;
  getItem(key: string): string | null {
    this.check();
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.check();
    this.items.set(key, String(value));
  }
  removeItem(key: string): void {
    this.check();
    this.items.delete(key);
  }
  private check(): void {
    if (this.blocked) throw new Error("SecurityError: storage is blocked");
  }
}

/** The few DOM calls the SDK makes: meta tags and `#platform-page-config`. */
export class FakeDocument {
  readonly meta = new Map<string, string>();
  pageConfig: Record<string, string> | undefined;
  querySelector(selector: string): { getAttribute(name: string): string | null } | null {
    const m = /^meta\[name="([^"]+)"\]$/.exec(selector);
    const content = m ? this.meta.get(m[1]!) : undefined;
    return content === undefined ? null : { getAttribute: (n) => (n === "content" ? content : null) };
  }
  getElementById(id: string): { dataset: Record<string, string> } | null {
    return id === "platform-page-config" && this.pageConfig ? { dataset: { ...this.pageConfig } } : null;
  }
}

/** One request the SDK sent through the stubbed fetch. */
export interface SentRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
  credentials: string | undefined;
}

/** A canned answer of the stubbed fetch. */
export type Answer = { status?: number; body?: unknown; contentType?: string };

/** A browser-like global for the IIFE: window, document, storages, location, a recording fetch. */
export interface Sandbox {
  context: Context;
  window: Record<string, unknown>;
  document: FakeDocument;
  localStorage: FakeStorage;
  sessionStorage: FakeStorage;
  sent: SentRequest[];
  assigned: string[];
  /** Answers by `METHOD path`; unknown requests get a 404. */
  answers: Map<string, Answer | ((r: SentRequest) => Answer)>;
  /** Runs code in the sandbox (after the SDK loaded). */
  run<T>(code: string): T;
}

/** Loads the built IIFE into a fresh sandbox whose page is `origin` + `/page`. */
export async function sdkSandbox(origin = "https://app.example"): Promise<Sandbox> {
  const document = new FakeDocument();
  const localStorage = new FakeStorage();
  const sessionStorage = new FakeStorage();
  const sent: SentRequest[] = [];
  const assigned: string[] = [];
  const answers: Sandbox["answers"] = new Map();
  const fetch = async (input: string, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input, origin);
    const request: SentRequest = {
      url: url.href,
      method: init.method ?? "GET",
      headers: Object.fromEntries(new Headers(init.headers).entries()),
      body: typeof init.body === "string" ? init.body : undefined,
      credentials: init.credentials,
    };
    sent.push(request);
    const found = answers.get(`${request.method} ${url.pathname}`);
    const answer = typeof found === "function" ? found(request) : (found ?? { status: 404, body: {} });
    return new Response(answer.body === undefined ? "" : JSON.stringify(answer.body), {
      status: answer.status ?? 200,
      headers: { "content-type": answer.contentType ?? "application/json" },
    });
  };
  const window: Record<string, unknown> = {};
  Object.assign(window, {
    window,
    document,
    localStorage,
    sessionStorage,
    location: {
      href: `${origin}/page`,
      origin,
      assign: (url: string) => assigned.push(url),
    },
    navigator: {},
    fetch,
    Headers,
    Response,
    URL,
    URLSearchParams,
    EventTarget,
    Event,
    CustomEvent,
    AbortController,
    crypto: globalThis.crypto,
    atob,
    btoa,
    console,
  });
  const context = createContext(window);
  runInContext(await builtIife(), context, { filename: "platform-mfa-sdk.js" });
  return {
    context,
    window,
    document,
    localStorage,
    sessionStorage,
    sent,
    assigned,
    answers,
    run: <T>(code: string) => runInContext(code, context) as T,
  };
}
