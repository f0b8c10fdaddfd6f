import "reflect-metadata"; // once, first, in each entry point
import { serveHttp } from "@keyward/adapters-http";
import { ServerAddress } from "@keyward/core";
import { createHostApp } from "./host-app.js";

// `pnpm start` in this folder (PORT, default 8080). Without a mailer, codes and links go to the
// platform's development outbox, .platform/outbox.jsonl; set platform.server.public-url in production.
const host = await createHostApp();
const server = await serveHttp(host.app, { port: Number(process.env.PORT ?? 8080) });
// Links in mails are absolute once the platform knows where it listens (or its public URL).
host.platform.resolve(ServerAddress).port = server.port;
console.log(`example host listening on ${server.url} (users: ana, bo, root; see README.md)`);

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().then(() => host.platform.stop());
  });
}
