import {
  antMatcher,
  notMatcher,
  orMatcher,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { dynamicAuthorization } from "@keyward/core/authz";

/** How recent the second factor must be for `/account/**` (step-up). */
export const STEP_UP_MAX_AGE_MS = 5 * 60_000;

/**
 * Two chains. Pages: an MFA flow whose first step is the form login at `/login` (a session cookie),
 * then a code by e-mail for the users the MFA policy challenges (ROLE_ADMIN by default). It serves
 * every path but `/api/**`, and also `/api/mfa/**` (the flow's own JSON endpoints, which the browser
 * SDK reads: a page chain that left them to the API chain would answer its `GET /api/mfa/config`
 * with 404) and `/api/me`. API: JSON login at `POST /api/login` answering tokens, bearer tokens on
 * `/api/**`. Both end with the dynamic authorization manager, so every request meets the policies;
 * with `platform.policy.no-match-decision=DENY` (createHostApp) a path no policy names is refused, so
 * the public pages, scripts and health checks are permitted here by name.
 */
export function hostSecurity(registry: SecurityRegistry): SecurityConfiguration {
  const pages = orMatcher(
    notMatcher(antMatcher("/api/**")),
    antMatcher("/api/mfa/**"),
    antMatcher("/api/me"),
  );
  return registry
    .mfa((mfa) =>
      mfa
        .primaryAuthentication((p) => p.formLogin((form) => form.defaultSuccessUrl("/")))
        .ott()
        .rawHttp((http) =>
          http
            .securityMatcher(pages)
            .authorizeHttpRequests((a) =>
              a
                .requestMatchers("/", "/host/**", "/js/**", "/health", "/health/**")
                .permitAll()
                .requestMatchers("/account/**")
                .recentFactor(STEP_UP_MAX_AGE_MS)
                .anyRequest()
                .access(dynamicAuthorization()),
            ),
        ),
    )
    .session()
    .rest((rest) =>
      rest.rawHttp((http) =>
        http
          .securityMatcher("/api/**")
          .authorizeHttpRequests((a) => a.anyRequest().access(dynamicAuthorization())),
      ),
    )
    .oauth2()
    .build();
}
