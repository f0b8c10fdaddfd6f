/**
 * The access log of the test stacks: off (a run serves thousands of requests, one line each on
 * stderr), on when the run asks for it with `PLATFORM_HTTP_ACCESS_LOG_ENABLED=true pnpm test`. The
 * stacks read no process environment (`env: {}`), so they take it as a property; a test about the
 * access log sets `platform.http.access-log.enabled` itself, which comes later and wins.
 */
export const QUIET_ACCESS_LOG = {
  "platform.http.access-log.enabled": process.env.PLATFORM_HTTP_ACCESS_LOG_ENABLED === "true",
} as const;
