import { inspectMongoStore } from "@keyward/adapters-mongo";
import type { Platform } from "@keyward/core";
import { PasswordHasher } from "@keyward/core/ports";
import { DEMO_USERS } from "../demo-security.js";
import type { DoctorFinding } from "./doctor-finding.js";

/**
 * The store: in memory (keys and data lost at restart, the demo's users seeded with known passwords at
 * every start), or MongoDB: reachable, at this build's schema version, every index a start creates
 * present, and no demo user still holding its demo password. Reads only.
 */
export async function storeFindings(
  uri: string | undefined,
  platform: Platform,
  production: boolean,
): Promise<DoctorFinding[]> {
  if (!uri)
    return [
      {
        code: "STORE_IN_MEMORY",
        severity: production ? "error" : "info",
        message:
          "The store is in memory: users, sessions and keys are lost at restart, and `platform start` seeds the demo users (known passwords) at every start",
        fix: "use MongoDB: --mongo-uri or platform.mongo.uri",
      },
    ];
  const usernames = DEMO_USERS.map((u) => u.username);
  const found = await inspectMongoStore(uri, platform.container, { usernames });
  if (!found.reachable)
    return [
      {
        code: "STORE_UNREACHABLE",
        severity: "error",
        message: `MongoDB ${found.target} did not answer (${found.reason})`,
        fix: "check the URI, the network and the credentials",
      },
    ];
  const out: DoctorFinding[] = [];
  const version = found.schemaVersion ?? 0;
  if (version > found.latestSchemaVersion)
    out.push({
      code: "STORE_SCHEMA_NEWER",
      severity: "error",
      message: `MongoDB ${found.target} is at schema version ${version}, newer than this build's ${found.latestSchemaVersion}`,
      fix: "run the newer build",
    });
  else if (version < found.latestSchemaVersion)
    out.push({
      code: "STORE_SCHEMA_BEHIND",
      severity: "warning",
      message: `MongoDB ${found.target} is at schema version ${version}; this build migrates it to ${found.latestSchemaVersion} at start`,
    });
  if (found.missingIndexes.length > 0)
    out.push({
      code: "STORE_INDEXES_MISSING",
      severity: "warning",
      message: `MongoDB ${found.target} lacks ${found.missingIndexes.length} index(es): ${found.missingIndexes
        .slice(0, 8)
        .map((i) => `${i.collection}.${i.index}`)
        .join(", ")}${found.missingIndexes.length > 8 ? ", ..." : ""}`,
      fix: "a start creates them (docs/mongodb.md); a start that fails on one names the conflict",
    });
  out.push(...(await demoUserFindings(found.passwordHashes, platform, production)));
  return out;
}

async function demoUserFindings(
  hashes: Record<string, string>,
  platform: Platform,
  production: boolean,
): Promise<DoctorFinding[]> {
  const hasher = platform.resolve(PasswordHasher);
  const known: string[] = [];
  for (const user of DEMO_USERS) {
    const hash = hashes[user.username];
    if (hash !== undefined && (await hasher.verify(user.password, hash).catch(() => false)))
      known.push(user.username);
  }
  return known.length === 0
    ? []
    : [
        {
          code: "DEMO_USERS_PRESENT",
          severity: production ? "error" : "warning",
          message: `Demo users with their demo passwords: ${known.join(", ")}`,
          fix: "delete them or change their passwords (platform users ...)",
        },
      ];
}
