// `pnpm publish:dry-run` (a step of .ci/run): packs every package with pnpm (which writes the exact
// versions of internal dependencies and the publishConfig exports) and runs `npm publish --dry-run`
// on each tarball: what would be published, its size and file count, with no login and no upload.
// Needs a build first (`pnpm build`). Exit 1 when a package fails to pack or to pass the dry run.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const FOLDERS = ["core", "adapters-http", "adapters-mongo", "sdk-browser", "cli"];

function run(command: string, args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(command, args, { cwd, encoding: "utf8" });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

const into = mkdtempSync(join(tmpdir(), "keyward-publish-"));
let failed = 0;
try {
  for (const folder of FOLDERS) {
    const packed = run("pnpm", ["pack", "--pack-destination", into], join(ROOT, "packages", folder));
    const tarball = packed.out.trim().split("\n").at(-1) ?? "";
    const dry = packed.ok ? run("npm", ["publish", "--dry-run", tarball], into) : packed;
    const field = (name: string) =>
      new RegExp(`npm notice ${name}:\\s*(.+)`).exec(dry.out)?.[1]?.trim() ?? "?";
    if (dry.ok) {
      console.log(
        `${field("name")}@${field("version")}: ${field("package size")} packed, ${field("total files")} files`,
      );
    } else {
      failed++;
      console.error(`${folder}: failed\n${dry.out}`);
    }
  }
} finally {
  rmSync(into, { recursive: true, force: true });
}
console.log(failed === 0 ? "publish dry run: OK" : `publish dry run: ${failed} package(s) failed`);
process.exitCode = failed === 0 ? 0 : 1;
