import { isSdkRequest } from "../sdk-request.js";
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

/**
 * Wraps `scope.fetch`. Requests to other origins, the SDK's own requests and streamed bodies pass
 * untouched. Others get `X-Requested-With: XMLHttpRequest` (unless set) and a replayable copy is kept
 * before sending; a platform answer is handed to the hooks: a step-up resolves, once completed, with
 * the retried answer (or the original one when the request may not be sent again or the challenge was
 * given up); a refusal no factor clears is reported and returned as it is. Returns the uninstaller.
 */
export function interceptFetch(scope: typeof globalThis, hooks: InterceptHooks): () => void {
  const original = scope.fetch;
  if (typeof original !== "function") return () => {};
  let active = true;
  const send = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    original.call(scope, input, init);

  const platformFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    if (!active || isSdkRequest(init) || isStream(init?.body)) return send(input, init);
    const url = sameOriginUrl(input instanceof Request ? input.url : input);
    if (url === undefined) return send(input, init);
    let given: Request;
    try {
      // The resolved URL: a relative one means the page's origin.
      given = new Request(input instanceof Request ? input : url, init);
    } catch {
      return send(input, init); // the browser's own error for a malformed request
    }
    const headers = new Headers(given.headers);
    if (!headers.has(REQUESTED_WITH)) headers.set(REQUESTED_WITH, "XMLHttpRequest");
    let request: Request;
    try {
      request = new Request(given, { headers });
    } catch {
      return send(given); // a header this mode forbids (no-cors): sent as the application made it
    }
    const replay = request.clone();
    const epoch = hooks.epoch();
    const response = await send(request);
    const { verdict, body } = await readVerdict(response);
    if (verdict.action === "pass") return response;
    const met = { method: request.method.toUpperCase(), url: request.url };
    if (verdict.action === "blocked") {
      hooks.blocked({ ...met, status: verdict.status, code: verdict.code, body });
      return response;
    }
    const decision = hooks.retry({ ...met, idempotencyKey: headers.get(IDEMPOTENCY_KEY_HEADER) });
    let completion: Awaited<ReturnType<InterceptHooks["challenge"]>>;
    try {
      completion = await hooks.challenge({
        ...met,
        status: verdict.status,
        code: verdict.code,
        body,
        authorization: headers.get("Authorization"),
        epoch,
      });
    } catch {
      return response;
    }
    if (!decision.retry) {
      hooks.retrySkipped(met);
      return response;
    }
    const retried = new Headers();
    replay.headers.forEach((value, name) => {
      retried.set(name, retriedHeaderValue(name, value, completion));
    });
    return send(new Request(replay, { headers: retried }));
  };

  scope.fetch = platformFetch as typeof fetch;
  return () => {
    active = false;
    if (scope.fetch === platformFetch) scope.fetch = original;
  };
}

/** Reads the body of a candidate answer (JSON, a status of the table) from a clone; others pass unread. */
async function readVerdict(response: Response): Promise<ReadVerdict> {
  if (
    !PLATFORM_CODE_STATUSES.has(response.status) ||
    !isJsonContentType(response.headers.get("content-type"))
  ) {
    return verdictOf(response.status, undefined);
  }
  try {
    return verdictOf(response.status, await response.clone().json());
  } catch {
    return verdictOf(response.status, undefined);
  }
}

function isStream(body: unknown): boolean {
  return typeof ReadableStream !== "undefined" && body instanceof ReadableStream;
}
