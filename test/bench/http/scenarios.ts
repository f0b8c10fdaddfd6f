import type { DemoCredentials } from "./demo-credentials.js";
import type { LoadTarget } from "./keep-alive-load.js";

/** The servers of one run: a bare h3 app and the demo platform. */
export interface BenchPorts {
  bare: number;
  demo: number;
}

/** One measured route: what to send, and how to tell that it answered the right thing. */
export interface Scenario {
  id: ScenarioId;
  label: string;
  target(ports: BenchPorts, creds: DemoCredentials): LoadTarget;
  /** True when the sample body is the route's real answer (not, say, a login page). */
  answered(body: string): boolean;
}

/** The routes `pnpm bench:http` measures, in the order of each interleaved round. */
export const SCENARIO_IDS = ["bare", "health", "session-me", "bearer-me", "bearer-orders"] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

const JSON_ACCEPT = { accept: "application/json" } as const;
const isMe = (body: string): boolean => body.includes('"username":"user"');

/** Each scenario by id. */
export const SCENARIOS: Record<ScenarioId, Scenario> = {
  bare: {
    id: "bare",
    label: "bare h3 route",
    target: (p) => ({ port: p.bare, path: "/bare", headers: JSON_ACCEPT }),
    answered: (body) => body.includes('"UP"'),
  },
  health: {
    id: "health",
    label: "GET /health",
    target: (p) => ({ port: p.demo, path: "/health", headers: JSON_ACCEPT }),
    answered: (body) => body.includes('"UP"'),
  },
  "session-me": {
    id: "session-me",
    label: "GET /api/me (session)",
    target: (p, c) => ({
      port: p.demo,
      path: "/api/me",
      headers: { ...JSON_ACCEPT, cookie: c.sessionCookie },
    }),
    answered: isMe,
  },
  "bearer-me": {
    id: "bearer-me",
    label: "GET /api/me (bearer)",
    target: (p, c) => ({
      port: p.demo,
      path: "/api/me",
      headers: { ...JSON_ACCEPT, authorization: c.authorization },
    }),
    answered: isMe,
  },
  "bearer-orders": {
    id: "bearer-orders",
    label: "GET /api/orders (bearer, PDP + zero trust)",
    target: (p, c) => ({
      port: p.demo,
      path: "/api/orders",
      headers: { ...JSON_ACCEPT, authorization: c.authorization },
    }),
    answered: (body) => body.startsWith("["),
  },
};
