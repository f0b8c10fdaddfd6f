import {
  type Authentication,
  setCurrentAuthentication,
} from "../../identity/authentication/authentication.js";
import { user } from "../../identity/authentication/authentication.fixture.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { ManualClock } from "../../kernel/clock.js";
import { InProcessEventBus, type PlatformEvent } from "../../kernel/event-bus.js";
import { CryptoIdGenerator } from "../../kernel/id-generator.js";
import { HttpExchange } from "../../web/http-exchange.js";
import { ESCALATION_BINDING_COOKIE } from "./escalation-caller-binding.js";
import { EscalationService } from "./escalation-service.js";
import { InMemoryEscalationStore } from "./in-memory-escalation-store.js";

/** Test fixture: an authentication of `username` holding `authorities`. */
export { user };

/** Test fixture: the escalated user, two administrators and a plain user. */
export const ALICE = user("u-alice", "alice");
export const ROOT = user("u-root", "root", ["ROLE_USER", "ROLE_ADMIN"]);
export const OPS = user("u-ops", "ops", ["ROLE_ADMIN"]);
export const BOB = user("u-bob", "bob");

/** Test fixture: an exchange; `cookie` is the raw Cookie header, `as` sets the current authentication. */
export function exchange(
  init: { method?: string; url?: string; cookie?: string; as?: Authentication; remoteAddress?: string } = {},
): HttpExchange {
  const x = new HttpExchange({
    method: init.method ?? "GET",
    url: init.url ?? "/",
    headers: { cookie: init.cookie, accept: "application/json" },
    remoteAddress: init.remoteAddress ?? "203.0.113.7",
  });
  if (init.as) setCurrentAuthentication(x, init.as);
  return x;
}

/** Test fixture: the `PLATFORM_ESCALATION` Cookie header an exchange's response set. */
export function bindingCookieOf(x: HttpExchange): string {
  const cookie = x.response.cookies.find((c) => c.name === ESCALATION_BINDING_COOKIE);
  if (!cookie) throw new Error("no binding cookie was set");
  return `${ESCALATION_BINDING_COOKIE}=${cookie.value}`;
}

/** Test fixture: a service over an in-memory store, a manual clock, a recording audit sink and bus. */
export function setup(ttlMs?: number) {
  const clock = new ManualClock();
  const store = new InMemoryEscalationStore({ clock });
  const audit = new InMemoryAuditSink(1_000, clock);
  const events = new InProcessEventBus();
  const published: PlatformEvent[] = [];
  events.on("*", (e) => {
    published.push(e);
  });
  const service = new EscalationService({
    store,
    clock,
    ids: new CryptoIdGenerator(),
    audit,
    events,
    ...(ttlMs === undefined ? {} : { ttlMs }),
  });
  /** Opens an escalation for alice and returns it with the Cookie header her client now sends. */
  const openForAlice = async (reason = "new network") => {
    const x = exchange({ method: "POST", url: "/login" });
    const escalation = await service.open(x, ALICE, "mfa", reason);
    return { escalation, cookie: bindingCookieOf(x), opened: x };
  };
  return { clock, store, audit, events, published, service, openForAlice };
}
