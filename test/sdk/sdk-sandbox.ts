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

/** The meta element the fake document answers (content readable and writable). */
interface FakeMeta {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
}

/** The few DOM calls the SDK makes: meta tags and `#platform-page-config`. */
export class FakeDocument {
  readonly meta = new Map<string, string>();
  pageConfig: Record<string, string> | undefined;
  querySelector(selector: string): FakeMeta | null {
    const m = /^meta\[name="([^"]+)"\]$/.exec(selector);
    const name = m?.[1];
    const content = name === undefined ? undefined : this.meta.get(name);
    if (name === undefined || content === undefined) return null;
    return {
      getAttribute: (n) => (n === "content" ? (this.meta.get(name) ?? null) : null),
      setAttribute: (n, v) => {
        if (n === "content") this.meta.set(name, v);
      },
    };
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
  /** True when the SDK marked it as its own request (the interceptor lets those through). */
  sdk: boolean;
}

/** A canned answer of the stubbed fetch. */
export type Answer = { status?: number; body?: unknown; contentType?: string; text?: string };

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
  // Takes a URL and an init (the SDK's own calls) or a Request (what the interceptor sends).
  const fetch = async (input: string | Request, init: RequestInit = {}): Promise<Response> => {
    const given = input instanceof Request ? input : undefined;
    const url = new URL(given ? given.url : input, origin);
    const method = given ? given.method : (init.method ?? "GET");
    const request: SentRequest = {
      url: url.href,
      method,
      headers: Object.fromEntries(new Headers(given ? given.headers : init.headers).entries()),
      body: given
        ? method === "GET" || method === "HEAD"
          ? undefined
          : await given.text()
        : typeof init.body === "string"
          ? init.body
          : undefined,
      credentials: given ? given.credentials : init.credentials,
      sdk: (init as Record<symbol, unknown>)[Symbol.for("platform.mfa.sdk-request")] === true,
    };
    sent.push(request);
    const found = answers.get(`${request.method} ${url.pathname}`);
    const answer = typeof found === "function" ? found(request) : (found ?? { status: 404, body: {} });
    const text = answer.text ?? (answer.body === undefined ? "" : JSON.stringify(answer.body));
    return new Response(text, {
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
    Request,
    Response,
    ReadableStream,
    setTimeout,
    clearTimeout,
    queueMicrotask,
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
