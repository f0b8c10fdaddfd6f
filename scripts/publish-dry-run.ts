// `pnpm publish:dry-run` (a step of .ci/run): packs every package with pnpm (which writes the exact
// versions of internal dependencies and the publishConfig exports) and runs `npm publish --dry-run`
// on each tarball: what would be published, its size and file count, with no login and no upload.
// Needs a build first (`pnpm build`). Exit 1 when a package fails to pack or to pass the dry run.
// With KEYWARD_TARBALLS=<dir> (`.ci/run`, which packed the build once for this and the pack test) it
// takes the tarballs from there instead of packing again.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));
const FOLDERS = ["core", "adapters-http", "adapters-mongo", "sdk-browser", "cli"];

function run(command: string, args: string[], cwd: string): { ok: boolean; out: string } {
  const r = spawnSync(command, args, { cwd, encoding: "utf8" });
  return { ok: r.status === 0, out: `${r.stdout}${r.stderr}` };
}

/** The tarball `pnpm pack` names for a package (`@keyward/core` 0.1.0 → `keyward-core-0.1.0.tgz`) in `dir`, if there. */
function packedBefore(dir: string, folder: string): { ok: boolean; out: string } {
  const manifest = JSON.parse(readFileSync(join(ROOT, "packages", folder, "package.json"), "utf8"));
  const tarball = join(dir, `${manifest.name.replace(/^@/, "").replace("/", "-")}-${manifest.version}.tgz`);
  return existsSync(tarball) ? { ok: true, out: tarball } : { ok: false, out: `${tarball}: not packed` };
}

const tarballs = process.env.KEYWARD_TARBALLS ? resolve(process.env.KEYWARD_TARBALLS) : undefined;
const into = mkdtempSync(join(tmpdir(), "keyward-publish-"));
let failed = 0;
try {
  for (const folder of FOLDERS) {
    const packed = tarballs
      ? packedBefore(tarballs, folder)
      : run("pnpm", ["pack", "--pack-destination", into], join(ROOT, "packages", folder));
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
