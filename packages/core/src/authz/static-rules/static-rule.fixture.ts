import { AuthorizationFilter } from "../../identity/http-security/authorization-filter.js";
import { AuthorizeHttpRequests } from "../../identity/http-security/http-security.js";
import { ManualClock } from "../../kernel/clock.js";
import { InMemoryAuditSink } from "../../kernel/in-memory-audit-sink.js";
import { antMatcher, anyRequest, type RequestMatcher } from "../../web/request-matcher.js";
import { dynamicAuthorization } from "../pdp/dynamic-authorization.js";
import type { ListedChain } from "./static-rule-listing.js";

/** Test fixture: a chain as assembly builds it, with the static rules `rules` writes. */
export function chain(
  id: string,
  rules: (a: AuthorizeHttpRequests) => void,
  matcher: RequestMatcher = anyRequest(),
): ListedChain {
  const a = new AuthorizeHttpRequests([
    { name: "recentFactor", rule: () => ({ check: async () => ({ granted: true, reason: "t" }) }) },
  ]);
  rules(a);
  return {
    id,
    matcher,
    filters: [new AuthorizationFilter(a.rules, new InMemoryAuditSink(10, new ManualClock()))],
  };
}

/** Test fixture: an API chain with a role rule, an authority rule, several others, then the policies. */
export function apiChain(): ListedChain {
  return chain(
    "api",
    (a) => {
      a.requestMatchers("/api/admin/**", "/api/ops/**").hasRole("ADMIN");
      a.requestMatchers("GET", "/api/reports/*").hasAnyAuthority("reports.read", "SCOPE_reports");
      a.requestMatchers("/api/public/**").permitAll();
      a.requestMatchers("/api/closed/**").denyAll();
      a.requestMatchers("/api/me").authenticated();
      (a.requestMatchers("/api/step-up/**") as unknown as { recentFactor(ms: number): void }).recentFactor(
        60_000,
      );
      a.requestMatchers("TRACE", "/api/trace").hasRole("OPS");
      a.requestMatchers({ description: "custom matcher", matches: () => false }).hasRole("X");
      a.anyRequest().access(dynamicAuthorization());
    },
    antMatcher("/api/**"),
  );
}
