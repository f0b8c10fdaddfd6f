import {
  antMatcher,
  notMatcher,
  orMatcher,
  PasswordHasher,
  type Platform,
  type SecurityConfiguration,
  type SecurityRegistry,
  UserRepository,
} from "@platform/core";

/** The demo's users, printed at start. */
export const DEMO_USERS = [
  { username: "user", password: "password", authorities: ["ROLE_USER"] },
  { username: "admin", password: "admin", authorities: ["ROLE_USER", "ROLE_ADMIN"] },
] as const;

/**
 * The demo's chains: form login with a session for the pages (everything outside `/api/**`, plus
 * `/api/me` so a browser session can ask who it is), and REST login with stateless JWTs for `/api/**`.
 */
export function demoSecurity(registry: SecurityRegistry): SecurityConfiguration {
  return registry
    .form((form) =>
      form
        .defaultSuccessUrl("/")
        .rawHttp((http) =>
          http.securityMatcher(orMatcher(notMatcher(antMatcher("/api/**")), antMatcher("/api/me"))),
        ),
    )
    .session()
    .rest((rest) => rest.rawHttp((http) => http.securityMatcher("/api/**")))
    .oauth2()
    .build();
}

/** Creates the demo users (once; an existing user is left alone). */
export async function seedDemoUsers(platform: Platform): Promise<void> {
  const users = platform.resolve(UserRepository);
  const hasher = platform.resolve(PasswordHasher);
  for (const u of DEMO_USERS) {
    if (await users.findByUsername(u.username)) continue;
    await users.create({
      username: u.username,
      passwordHash: await hasher.hash(u.password),
      authorities: [...u.authorities],
    });
  }
}
