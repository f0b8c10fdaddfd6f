import { browserStorage, readItem, removeItem, writeItem } from "../browser-storage.js";
import { isLocalUrl } from "../local-redirect.js";
import type { InterceptedRequest } from "./step-up-challenge.js";

/** The sessionStorage key of the request remembered before the redirect fallback. */
export const RESUME_KEY = "platform_mfa_resume";

/** A remembered request older than this is dropped unannounced (the MFA session lasts 10 minutes). */
export const RESUME_MAX_AGE_MS = 15 * 60_000;

/**
 * Remembers, for the redirect fallback, the method and the URL (as a local path) of the request that
 * met the step-up, with the time; never its body, headers or tokens. sessionStorage: this tab only.
 */
export function saveResume(request: InterceptedRequest): void {
  const u = new URL(request.url, location.href);
  const record = { method: request.method, url: u.pathname + u.search + u.hash, at: Date.now() };
  writeItem(browserStorage("sessionStorage"), RESUME_KEY, JSON.stringify(record));
}

/** The remembered request, once: it is removed as it is read; undefined when absent, malformed or stale. */
export function takeResume(): InterceptedRequest | undefined {
  const storage = browserStorage("sessionStorage");
  const raw = readItem(storage, RESUME_KEY);
  if (raw === undefined) return undefined;
  removeItem(storage, RESUME_KEY);
  try {
    const r = JSON.parse(raw) as { method?: unknown; url?: unknown; at?: unknown };
    const fresh = typeof r.at === "number" && Date.now() - r.at < RESUME_MAX_AGE_MS && r.at <= Date.now();
    if (!fresh || typeof r.method !== "string" || !/^[A-Z]{1,16}$/.test(r.method) || !isLocalUrl(r.url)) {
      return undefined;
    }
    return { method: r.method, url: r.url };
  } catch {
    return undefined;
  }
}
