import {
  antMatcher,
  type MfaOptions,
  notMatcher,
  orMatcher,
  type Platform,
  rules,
  type SecurityConfiguration,
  type SecurityRegistry,
} from "@keyward/core";
import { isPlatformError } from "@keyward/core/errors";
import { authorizationAdminApi, dynamicAuthorization, zeroTrustChecked } from "@keyward/core/authz";
import { userAdminApi } from "@keyward/core/identity";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";

/** The demo's users, printed at start. */
export const DEMO_USERS = [
  { username: "user", password: "password", authorities: ["ROLE_USER"] },
  { username: "admin", password: "admin", authorities: ["ROLE_USER", "ROLE_ADMIN"] },
  // A second administrator: an escalated sign-in needs someone other than its own user to approve it.
  { username: "admin2", password: "admin2", authorities: ["ROLE_USER", "ROLE_ADMIN"] },
] as const;

/**
 * Where the API's MFA flow lives (`mfa_api`: REST primary, tokens): `/api/login` hands challenged users
 * there, and its step endpoints are `<prefix>/login/mfa-ott`, `<prefix>/mfa/ott/generate-code`, ...
 */
export const API_MFA_PREFIX = "/api/token-mfa";

/** How recent a second factor must be for the demo's step-up routes (`/account/**`, `/api/account/**`). */
export const STEP_UP_MAX_AGE_MS = 5 * 60_000;

/** Where `platform serve` creates the first administrator with the setup token (public on the page chain). */
export const SETUP_PATH = "/setup";

/** Paths served by the OTT chain (generation, the built-in submit page and processing). */
const OTT_PATHS = ["/ott/**", "/login/ott"];

/** Paths served by the passkey chain (sign-in, management, the built-in page and its script). */
const PASSKEY_PATHS = ["/login/webauthn", "/webauthn/**", "/passkeys"];

/**
 * The demo's chains, each with its own security matcher: an MFA flow whose primary is form login
 * with a session for the pages (everything not claimed by another chain, plus `/api/me` so a browser
 * session can ask who it is, and the flow's `/api/mfa/**`): `admin` (ROLE_ADMIN) must enter an emailed
 * code, `user` signs in with the password alone; the session chains hand `admin` into this flow too;
 * the API's MFA flow (REST primary, tokens) under {@link API_MFA_PREFIX}, into which `/api/login` hands
 * challenged users; REST login with stateless JWTs for `/api/**`, one-time-token (magic link) login and
 * passkey login (plus passkey management at `/passkeys`), both with the shared session.
 */
export function demoSecurity(registry: SecurityRegistry): SecurityConfiguration {
  return demoChains(registry, []);
}

/**
 * The demo's chains as `platform start` runs them: {@link demoSecurity} whose two MFA flows also
 * offer an authenticator app (`TOTP`, from totpPlugin) and recovery codes (`RECOVERY_CODE`, from
 * recoveryCodesPlugin), any one completing the flow. A user without a confirmed app or codes left is
 * offered the e-mailed code alone, as before.
 */
export function demoSecurityWithApps(registry: SecurityRegistry): SecurityConfiguration {
  return demoChains(registry, ["TOTP", "RECOVERY_CODE"]);
}

/** Adds the plugin factors `factors` to a flow; with any, one factor of the flow completes it. */
function offerFactors(flow: MfaOptions, factors: readonly string[]): MfaOptions {
  for (const type of factors) flow.factor(type);
  return factors.length === 0 ? flow : flow.requiredFactors(1);
}

function demoChains(registry: SecurityRegistry, factors: readonly string[]): SecurityConfiguration {
  const claimed = orMatcher(
    antMatcher("/api/**"),
    ...[...OTT_PATHS, ...PASSKEY_PATHS].map((p) => antMatcher(p)),
  );
  return (
    registry
      .mfa((mfa) =>
        offerFactors(
          mfa.primaryAuthentication((p) => p.formLogin((form) => form.defaultSuccessUrl("/"))).ott(),
          factors,
        ).rawHttp((http) =>
          http
            .securityMatcher(orMatcher(notMatcher(claimed), antMatcher("/api/me"), antMatcher("/api/mfa/**")))
            // Step-up: account settings need a second factor proved in the last 5 minutes. The
            // authorization admin API is ADMIN by a static rule (a bad database policy cannot lock
            // administrators out of the API that fixes it), checked against zero trust (an
            // administrator held for review cannot administer, nor lift the hold); everything else
            // is decided by the database policies (dynamic authorization).
            .authorizeHttpRequests((a) =>
              a
                // `platform serve`'s first-administrator page: reachable before anyone can sign in,
                // even under platform.policy.no-match-decision=DENY (the demo serves no such route).
                .requestMatchers(SETUP_PATH)
                .permitAll()
                .requestMatchers("/account/**")
                .recentFactor(STEP_UP_MAX_AGE_MS)
                .requestMatchers("/admin/api/**")
                .access(zeroTrustChecked(rules.hasAnyRole("ADMIN")))
                .anyRequest()
                .access(dynamicAuthorization()),
            )
            .addFilterAfter(authorizationAdminApi(), "authorization")
            // Users admin API (/admin/api/users/**) and the password-reset page (/reset-password).
            .addFilterAfter(userAdminApi(), "authorization"),
        ),
      )
      .session()
      // The API's MFA flow: JSON steps bound by the X-MFA-Session-Id and X-MFA-Binding headers (no cookie,
      // no CSRF token), ending in tokens. Registered before .rest() so it wins /api/token-mfa/** over /api/**.
      .mfa((mfa) =>
        offerFactors(
          mfa
            .name("api")
            .urlPrefix(API_MFA_PREFIX)
            .primaryAuthentication((p) => p.restLogin())
            .ott(),
          factors,
        ),
      )
      .oauth2()
      .rest((rest) =>
        rest.rawHttp((http) =>
          http
            .securityMatcher("/api/**")
            .authorizeHttpRequests((a) =>
              a
                .requestMatchers("/api/account/**")
                .recentFactor(STEP_UP_MAX_AGE_MS)
                .anyRequest()
                .access(dynamicAuthorization()),
            ),
        ),
      )
      .oauth2()
      .ott((ott) => ott.defaultSuccessUrl("/").rawHttp((http) => http.securityMatcher(...OTT_PATHS)))
      .session()
      .passkey((passkey) =>
        passkey.defaultSuccessUrl("/").rawHttp((http) => http.securityMatcher(...PASSKEY_PATHS)),
      )
      .session()
      .build()
  );
}

/**
 * Creates the demo users that do not exist yet. An existing account of the same name (a restart on
 * MongoDB, or an account someone changed) is never overwritten; a name another instance created
 * meanwhile (CONFLICT from the store) is left to it.
 */
export async function seedDemoUsers(platform: Platform): Promise<void> {
  const users = platform.resolve(UserRepository);
  const hasher = platform.resolve(PasswordHasher);
  for (const u of DEMO_USERS) {
    if (await users.findByUsername(u.username)) continue;
    try {
      await users.create({
        username: u.username,
        passwordHash: await hasher.hash(u.password),
        authorities: [...u.authorities],
      });
    } catch (error) {
      if (!isPlatformError(error, "CONFLICT")) throw error;
    }
  }
}
