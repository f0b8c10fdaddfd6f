// The lockfile of the throwaway consumer of test/packaging: the packed tarballs by their file: URL and
// integrity, every third-party package exactly as the workspace's pnpm-lock.yaml resolved it. With it
// `pnpm install --offline --frozen-lockfile` takes the third-party packages from the pnpm store and
// never asks a registry (an offline install without a lockfile needs the registry's metadata, which a
// frozen workspace install never fetched). Lockfile v9 is written as JSON, which is YAML.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";

/** One packed package: its tarball and the manifest pnpm pack wrote into it. */
export interface PackedPackage {
  /** The workspace folder under packages/ (`core`, `adapters-http`, …). */
  folder: string;
  /** The tarball's absolute path. */
  tarball: string;
  manifest: {
    name: string;
    version: string;
    engines?: Record<string, string>;
    dependencies?: Record<string, string>;
    peerDependencies?: Record<string, string>;
    peerDependenciesMeta?: Record<string, { optional?: boolean }>;
    exports?: Record<string, unknown>;
  };
}

/** A direct dependency of the consumer taken from the workspace (`typescript`, `reflect-metadata`). */
export interface WorkspaceDependency {
  name: string;
  /** The workspace importer whose resolution it takes (`.` or `packages/core`). */
  importer: string;
}

/** `name → { specifier, version }` of one importer of a v9 lockfile (all dependency kinds). */
export function importerResolutions(
  lockfile: string,
  importer: string,
): Map<string, { specifier: string; version: string }> {
  const lines = lockfile.split("\n");
  const start = lines.indexOf(`  ${importer}:`);
  if (start < 0) throw new Error(`no importer ${importer} in the workspace lockfile`);
  const found = new Map<string, { specifier: string; version: string }>();
  let name: string | undefined;
  let specifier = "";
  for (const line of lines.slice(start + 1)) {
    if (/^ {0,2}\S/.test(line)) break; // the next importer or section
    const dep = /^ {6}'?([^':]+)'?:$/.exec(line);
    const field = /^ {8}(specifier|version): (.+)$/.exec(line);
    if (dep) name = dep[1];
    else if (field?.[1] === "specifier") specifier = field[2] ?? "";
    else if (field?.[1] === "version" && name) found.set(name, { specifier, version: field[2] ?? "" });
  }
  return found;
}

/** The body of a top-level section (`packages:` or `snapshots:`), as lockfile text. */
function sectionBody(lockfile: string, section: string): string {
  const match = new RegExp(`^${section}:\\n([\\s\\S]*?)(?=^\\S|(?![\\s\\S]))`, "m").exec(lockfile);
  if (!match?.[1]) throw new Error(`no ${section} section in the workspace lockfile`);
  return match[1];
}

const q = (s: string) => JSON.stringify(s);

function integrityOf(file: string): string {
  return `sha512-${createHash("sha512").update(readFileSync(file)).digest("base64")}`;
}

/**
 * The consumer's lockfile: its direct dependencies (every tarball, plus `extra` from the workspace),
 * each tarball's dependencies (another tarball for an internal one, whose range must name exactly the
 * version packed; the workspace's resolution of its folder for a third-party one) and the workspace's
 * third-party packages and snapshots, copied as they are.
 */
export function consumerLockfile(
  workspaceLockfile: string,
  packed: PackedPackage[],
  extra: WorkspaceDependency[],
): string {
  const ref = new Map(packed.map((p) => [p.manifest.name, `file:${p.tarball}`]));
  const importer: string[] = [];
  for (const p of packed)
    importer.push(
      `      ${q(p.manifest.name)}: {specifier: ${q(ref.get(p.manifest.name) ?? "")}, version: ${q(ref.get(p.manifest.name) ?? "")}}`,
    );
  for (const e of extra) {
    const r = importerResolutions(workspaceLockfile, e.importer).get(e.name);
    if (!r) throw new Error(`${e.name} is not a dependency of ${e.importer} in the workspace lockfile`);
    importer.push(`      ${q(e.name)}: {specifier: ${q(r.specifier)}, version: ${q(r.version)}}`);
  }
  const packages: string[] = [];
  const snapshots: string[] = [];
  for (const p of packed) {
    const key = q(`${p.manifest.name}@${ref.get(p.manifest.name)}`);
    const m = p.manifest;
    packages.push(
      `  ${key}:\n    resolution: {integrity: ${integrityOf(p.tarball)}, tarball: ${q(ref.get(m.name) ?? "")}}\n    version: ${m.version}` +
        (m.engines ? `\n    engines: ${JSON.stringify(m.engines)}` : "") +
        (m.peerDependencies ? `\n    peerDependencies: ${JSON.stringify(m.peerDependencies)}` : "") +
        (m.peerDependenciesMeta
          ? `\n    peerDependenciesMeta: ${JSON.stringify(m.peerDependenciesMeta)}`
          : ""),
    );
    const resolved = importerResolutions(workspaceLockfile, `packages/${p.folder}`);
    const deps = Object.entries(m.dependencies ?? {}).map(([name, range]) => {
      const internal = packed.find((o) => o.manifest.name === name);
      if (internal) {
        if (range !== internal.manifest.version)
          throw new Error(
            `${m.name} depends on ${name}@${range}, not the version packed (${internal.manifest.version})`,
          );
        return `      ${q(name)}: ${q(ref.get(name) ?? "")}`;
      }
      const version = resolved.get(name)?.version;
      if (!version) throw new Error(`${m.name}'s dependency ${name} is not in the workspace lockfile`);
      return `      ${q(name)}: ${q(version)}`;
    });
    snapshots.push(deps.length ? `  ${key}:\n    dependencies:\n${deps.join("\n")}` : `  ${key}: {}`);
  }
  return [
    "lockfileVersion: '9.0'",
    "settings:\n  autoInstallPeers: true\n  excludeLinksFromLockfile: false",
    `importers:\n  .:\n    dependencies:\n${importer.join("\n")}`,
    `packages:\n${packages.join("\n")}\n${sectionBody(workspaceLockfile, "packages")}`,
    `snapshots:\n${snapshots.join("\n")}\n${sectionBody(workspaceLockfile, "snapshots")}`,
  ].join("\n\n");
}
