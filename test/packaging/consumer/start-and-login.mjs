// A consumer's host in plain Node ESM (no TypeScript loader): identity + http plugins on the in-memory
// defaults, one user, served on an ephemeral port; then a REST login. Prints one JSON line.
import "reflect-metadata";
import { createHttpApp, httpPlugin, serveHttp } from "@keyward/adapters-http";
import { createIdentityPlugin, createPlatform } from "@keyward/core";
import { PasswordHasher, UserRepository } from "@keyward/core/ports";

const platform = createPlatform({
  plugins: [
    httpPlugin,
    createIdentityPlugin({
      security: (r) =>
        r
          .rest((rest) => rest.rawHttp((h) => h.securityMatcher("/api/**")))
          .oauth2()
          .build(),
    }),
  ],
  properties: {
    "platform.auth.password.scrypt.cost-log2": 10,
    "platform.auth.password.scrypt.allow-low-cost": true,
  },
  env: {},
});
await platform.start();
const hasher = platform.resolve(PasswordHasher);
await platform.resolve(UserRepository).create({
  username: "kim",
  passwordHash: await hasher.hash("correct horse battery"),
  authorities: ["ROLE_USER"],
});
const { app } = createHttpApp({ platform });
const server = await serveHttp(app, { port: 0 });
try {
  const login = (password) =>
    fetch(`${server.url}/api/login`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ username: "kim", password }),
    });
  const ok = await login("correct horse battery");
  const body = await ok.json();
  const wrong = await login("wrong");
  const sdk = await fetch(`${server.url}/js/platform-mfa-sdk.js`);
  const sdkText = await sdk.text();
  console.log(
    JSON.stringify({
      status: ok.status,
      tokenType: body.tokenType,
      accessTokenParts: typeof body.accessToken === "string" ? body.accessToken.split(".").length : 0,
      wrongStatus: wrong.status,
      wrongCode: (await wrong.json()).code,
      sdkStatus: sdk.status,
      sdkDefinesPlatformMfa: sdkText.includes("PlatformMFA"),
    }),
  );
} finally {
  await server.close(true);
  await platform.stop();
}
