import {
  type InterceptHooks,
  REQUESTED_WITH,
  type ReadVerdict,
  sameOriginUrl,
  verdictOf,
} from "./intercept-hooks.js";
import { isJsonContentType, PLATFORM_CODE_STATUSES } from "./platform-codes.js";
import { IDEMPOTENCY_KEY_HEADER } from "./retry-policy.js";
import { retriedHeaderValue } from "./step-up-coordinator.js";

/** What the interceptor remembers of one XHR's current request. */
interface XhrState {
  /** The arguments of `open` (replayed by the retry). */
  open: unknown[];
  method: string;
  url: string;
  headers: [string, string][];
  body: Document | XMLHttpRequestBodyInit | null | undefined;
  /** Watched: asynchronous, same origin, interceptor active at open. */
  watch: boolean;
  /** The final events of a challenged answer are held back until the step-up ends. */
  held: boolean;
  /** Retried or released: the answer now goes to the application as it is. */
  settled: boolean;
  aborted: boolean;
  epoch: number;
}

const HELD_EVENTS = ["progress", "load", "loadend"] as const;

/**
 * Replaces `scope.XMLHttpRequest` with a subclass (so `instanceof`, constants and every native getter
 * keep working). Its own listeners, registered in the constructor before any of the application's,
 * see a finished answer first: a platform step-up is held back (`readystatechange`, `progress`,
 * `load` and `loadend` stopped), the challenge runs, and the same object is opened and sent again
 * with the kept `send()` body, so the application's callbacks, `status`, `responseText` and
 * `response` get the retried answer. When nothing is re-sent the held events are dispatched again on
 * the original answer. Synchronous requests, other origins and binary `responseType`s pass
 * untouched. Returns the uninstaller (instances made meanwhile then pass everything through).
 */
export function interceptXhr(scope: typeof globalThis, hooks: InterceptHooks): () => void {
  const Native = scope.XMLHttpRequest;
  if (typeof Native !== "function") return () => {};
  let active = true;
  const states = new WeakMap<XMLHttpRequest, XhrState>();
  const proto = Native.prototype;
  const context: XhrContext = { hooks, proto, isActive: () => active };

  class PlatformXMLHttpRequest extends Native {
    constructor() {
      super();
      const state = freshState();
      states.set(this, state);
      watchAnswers(this, state, context);
    }

    override open(method: string, url: string | URL, ...rest: unknown[]): void {
      const state = states.get(this);
      const resolved = sameOriginUrl(url);
      if (state) {
        Object.assign(state, {
          open: [method, url, ...rest],
          method: String(method).toUpperCase(),
          url: resolved ?? String(url),
          headers: [],
          body: null,
          watch: active && resolved !== undefined && rest[0] !== false,
          held: false,
          settled: false,
          aborted: false,
        });
      }
      (proto.open as (...args: unknown[]) => void).call(this, method, url, ...rest);
    }

    override setRequestHeader(name: string, value: string): void {
      states.get(this)?.headers.push([name, String(value)]);
      proto.setRequestHeader.call(this, name, value);
    }

    override send(body?: Document | XMLHttpRequestBodyInit | null): void {
      const state = states.get(this);
      if (state?.watch) {
        state.body = body;
        state.epoch = hooks.epoch();
        if (headerOf(state, REQUESTED_WITH) === undefined) {
          state.headers.push([REQUESTED_WITH, "XMLHttpRequest"]);
          proto.setRequestHeader.call(this, REQUESTED_WITH, "XMLHttpRequest");
        }
      }
      proto.send.call(this, body);
    }

    override abort(): void {
      const state = states.get(this);
      if (state) {
        state.aborted = true;
        state.held = false;
      }
      proto.abort.call(this);
    }
  }

  scope.XMLHttpRequest = PlatformXMLHttpRequest;
  return () => {
    active = false;
    if (scope.XMLHttpRequest === PlatformXMLHttpRequest) scope.XMLHttpRequest = Native;
  };
}

/** What the interceptor's helpers share: the hooks, the native prototype, whether it is installed. */
interface XhrContext {
  hooks: InterceptHooks;
  /** The native `XMLHttpRequest.prototype`: the retry calls its `open`, `setRequestHeader`, `send`. */
  proto: XMLHttpRequest;
  isActive(): boolean;
}

/** The state of an XHR that has not been opened yet. */
function freshState(): XhrState {
  return {
    open: [],
    method: "GET",
    url: "",
    headers: [],
    body: null,
    watch: false,
    held: false,
    settled: false,
    aborted: false,
    epoch: 0,
  };
}

/**
 * Registers the interceptor's own listeners on a new XHR (before any of the application's): a
 * finished platform answer is either reported as blocked or held back while the challenge runs.
 */
function watchAnswers(xhr: XMLHttpRequest, state: XhrState, context: XhrContext): void {
  xhr.addEventListener("readystatechange", (event) => {
    if (state.held) event.stopImmediatePropagation();
    if (xhr.readyState !== 4 || !context.isActive() || !state.watch || state.settled || state.held) return;
    const read = readVerdict(xhr);
    if (read.verdict.action === "pass") return;
    if (read.verdict.action === "blocked") {
      state.settled = true;
      const { status, code } = read.verdict;
      context.hooks.blocked({ method: state.method, url: state.url, status, code, body: read.body });
      return;
    }
    state.held = true;
    event.stopImmediatePropagation();
    void resume(xhr, state, read, context);
  });
  for (const type of HELD_EVENTS) {
    xhr.addEventListener(type, (event) => {
      if (state.held) event.stopImmediatePropagation();
    });
  }
}

/** Dispatches the held events again on the original answer, which now goes to the application. */
function release(xhr: XMLHttpRequest, state: XhrState): void {
  state.held = false;
  state.settled = true;
  xhr.dispatchEvent(new Event("readystatechange"));
  for (const type of HELD_EVENTS) xhr.dispatchEvent(new ProgressEvent(type));
}

/** Runs the challenge for a held answer, then sends the request again or releases the answer. */
async function resume(
  xhr: XMLHttpRequest,
  state: XhrState,
  verdict: ReadVerdict,
  { hooks, proto }: XhrContext,
): Promise<void> {
  const met = { method: state.method, url: state.url };
  const opened = state.open;
  const decision = hooks.retry({ ...met, idempotencyKey: headerOf(state, IDEMPOTENCY_KEY_HEADER) });
  let completion: Awaited<ReturnType<InterceptHooks["challenge"]>> | undefined;
  try {
    if (verdict.verdict.action !== "challenge") throw new Error("not a challenge");
    completion = await hooks.challenge({
      ...met,
      status: verdict.verdict.status,
      code: verdict.verdict.code,
      body: verdict.body,
      authorization: headerOf(state, "Authorization") ?? null,
      epoch: state.epoch,
    });
  } catch {
    completion = undefined;
  }
  // Aborted, or opened again by the application meanwhile: this answer is nobody's any more.
  if (state.aborted || state.open !== opened) return;
  if (!completion || !decision.retry) {
    if (completion) hooks.retrySkipped(met);
    release(xhr, state);
    return;
  }
  state.held = false;
  state.settled = true;
  proto.open.apply(xhr, state.open as Parameters<XMLHttpRequest["open"]>);
  for (const [name, value] of state.headers) {
    proto.setRequestHeader.call(xhr, name, retriedHeaderValue(name, value, completion));
  }
  proto.send.call(xhr, state.body);
}

function headerOf(state: XhrState, name: string): string | undefined {
  const lower = name.toLowerCase();
  const values = state.headers.filter(([n]) => n.toLowerCase() === lower).map(([, v]) => v);
  return values.length > 0 ? values.join(", ") : undefined;
}

/** The verdict on a finished answer, read synchronously (text and JSON `responseType`s only). */
function readVerdict(xhr: XMLHttpRequest): ReadVerdict {
  if (!PLATFORM_CODE_STATUSES.has(xhr.status) || !isJsonContentType(xhr.getResponseHeader("content-type"))) {
    return verdictOf(xhr.status, undefined);
  }
  try {
    if (xhr.responseType === "json") return verdictOf(xhr.status, xhr.response);
    if (xhr.responseType === "" || xhr.responseType === "text") {
      return verdictOf(xhr.status, JSON.parse(xhr.responseText));
    }
  } catch {
    // Malformed JSON is the application's business.
  }
  return verdictOf(xhr.status, undefined);
}
