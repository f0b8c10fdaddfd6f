// The order the test files start in. vitest runs the projects one after another (by name) and, within
// a project, the files it has timings for longest first; a fresh clone (CI) has no timings, so it falls
// back to the larger file first, and a short file that runs for half a minute (a CLI process test)
// started last leaves one of the two workers alone at the end. This sequencer keeps vitest's order
// and moves the files named in `SLOW_FIRST` (measured, slowest first) to the front of their project.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The files that run longest (seconds from the CI run's JSON report), slowest first: each starts as
 * soon as its project does, so the many short files fill the other worker meanwhile. Paths are
 * relative to the repository root.
 */
export const SLOW_FIRST: readonly string[] = [
  "packages/cli/src/shutdown.test.ts",
  "packages/cli/src/start-command.test.ts",
  "test/packaging/pack-and-install.test.ts",
  "test/e2e/sdk-pages.e2e.test.ts",
  "test/cli/platform-cli.test.ts",
  "packages/cli/src/start-mongo.test.ts",
  "test/e2e/sdk-step-up.e2e.test.ts",
  "test/golden/golden-answers.test.ts",
  "test/e2e/sdk-client.e2e.test.ts",
  "test/e2e/totp-factor.e2e.test.ts",
  "test/mongo/several-instances.test.ts",
  "test/e2e/passkey-and-magic-link.e2e.test.ts",
  "test/e2e/mfa-passkey-factor.e2e.test.ts",
  "test/e2e/sdk-passkey-autofill.e2e.test.ts",
  "test/mongo/mongo-doctor.test.ts",
];

/** Where `file` stands in `SLOW_FIRST` (after every listed file when it is not listed). */
export function slowRank(root: string, file: string): number {
  const relative = file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file;
  const rank = SLOW_FIRST.indexOf(relative);
  return rank === -1 ? SLOW_FIRST.length : rank;
}

/** vitest's order (projects in turn), with each project's known-slow files first. */
export class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const root = this.ctx.config.root;
    const position = new Map(sorted.map((spec, i) => [spec, i]));
    // Stable within a project: listed files by their rank, the others where vitest put them.
    return [...sorted].sort((a, b) => {
      if (a.project.name !== b.project.name) return (position.get(a) ?? 0) - (position.get(b) ?? 0);
      const rank = slowRank(root, a.moduleId) - slowRank(root, b.moduleId);
      return rank !== 0 ? rank : (position.get(a) ?? 0) - (position.get(b) ?? 0);
    });
  }
}
