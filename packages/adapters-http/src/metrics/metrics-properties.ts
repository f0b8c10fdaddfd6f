import { defineProperty, type PropertyDefinition, prop } from "@keyward/core";

/** Who may read the metrics endpoint (`platform.http.metrics.audience`). */
export const METRICS_AUDIENCES = ["loopback", "admin", "bearer"] as const;

/** One of METRICS_AUDIENCES. */
export type MetricsAudience = (typeof METRICS_AUDIENCES)[number];

/** Whether the platform counts requests and serves the metrics endpoint (default true). */
export const HTTP_METRICS_ENABLED = defineProperty({
  key: "platform.http.metrics.enabled",
  schema: prop.bool(),
  default: true,
  description:
    "Prometheus metrics: counted per platform and served at platform.http.metrics.path; false: neither.",
});

/** Path of the metrics endpoint (default `/metrics`): a literal path, a route in the route table. */
export const HTTP_METRICS_PATH = defineProperty({
  key: "platform.http.metrics.path",
  schema: prop.string().refine((path) => /^(\/[A-Za-z0-9._~-]+)+$/.test(path), {
    message: "must be a literal path such as /metrics (segments of A-Z a-z 0-9 . _ ~ -)",
  }),
  default: "/metrics",
  description: "Path of the Prometheus metrics endpoint (a literal path).",
});

/**
 * Who may read the metrics: `loopback` (the request's client address, as the binding resolved it, is
 * a loopback address; others get 404), `admin` (a signed-in ROLE_ADMIN caller, session or bearer;
 * 401 anonymous, 403 others) or `bearer` (`Authorization: Bearer <platform.http.metrics.bearer-token>`,
 * compared in constant time; 401 otherwise).
 */
export const HTTP_METRICS_AUDIENCE = defineProperty<MetricsAudience>({
  key: "platform.http.metrics.audience",
  // A word, never a secret: the property error may show it.
  schema: prop.string().refine((v) => (METRICS_AUDIENCES as readonly string[]).includes(v), {
    message: `must be one of ${METRICS_AUDIENCES.join(", ")}`,
  }) as unknown as PropertyDefinition<MetricsAudience>["schema"],
  default: "loopback",
  description:
    "Who reads the metrics: loopback (client address is loopback; else 404), admin (ROLE_ADMIN; 401/403), bearer (the shared token; 401).",
});

/**
 * The shared token of the `bearer` audience: at least 32 characters, never logged. Checked when the
 * app is created (a short or missing one is CONFIGURATION_INVALID, naming the key, never the value).
 */
export const HTTP_METRICS_BEARER_TOKEN = defineProperty({
  key: "platform.http.metrics.bearer-token",
  schema: prop.text(),
  default: "",
  description:
    "The shared token a scraper sends as `Authorization: Bearer <token>` when the audience is bearer (at least 32 characters). Secret: never log it.",
});

/** Every property of the metrics endpoint. */
export const HTTP_METRICS_PROPERTIES = [
  HTTP_METRICS_ENABLED,
  HTTP_METRICS_PATH,
  HTTP_METRICS_AUDIENCE,
  HTTP_METRICS_BEARER_TOKEN,
] as const;
