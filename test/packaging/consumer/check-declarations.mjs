// The strict type check of the consumer project, limited to what is ours: the consumer file and the
// declarations of the installed @keyward packages, checked with skipLibCheck off (which a plain
// `tsc -p tsconfig.json` leaves on, hiding errors in our declarations). The program is the one
// `tsc -p tsconfig.json --skipLibCheck false` builds (every file the consumer reaches, third-party
// declarations and TypeScript's lib files among them), but only our files' bodies are checked: the
// third-party ones are not ours to fix, and checking them (lib.dom, @types/node, mongodb, zod) was
// two thirds of the run. Types from them are still resolved wherever our files use them.
// Prints one JSON line: the files it checked, and every diagnostic as tsc prints it.
import { relative } from "node:path";
import ts from "typescript";

const fail = (diagnostic) => {
  throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
};
const config = ts.getParsedCommandLineOfConfigFile(
  "tsconfig.json",
  { skipLibCheck: false },
  { ...ts.sys, onUnRecoverableConfigFileDiagnostic: fail },
);
const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });

/** The consumer's own files and our packages' (after the last node_modules/: `@keyward/<name>/`). */
function isOurs(fileName) {
  const at = fileName.lastIndexOf("/node_modules/");
  return at === -1 || fileName.slice(at + "/node_modules/".length).startsWith("@keyward/");
}

const ours = program.getSourceFiles().filter((file) => isOurs(file.fileName));
const diagnostics = [
  ...config.errors,
  ...program.getOptionsDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...ours.flatMap((file) => [
    ...program.getSyntacticDiagnostics(file),
    ...program.getSemanticDiagnostics(file),
  ]),
];
const host = {
  getCanonicalFileName: (f) => f,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => "\n",
};
console.log(
  JSON.stringify({
    // `consumer.ts`, `@keyward/core/dist/index.d.ts`, …
    checked: ours.map((file) =>
      file.fileName.includes("/node_modules/")
        ? file.fileName.replace(/^.*\/node_modules\//, "")
        : relative(process.cwd(), file.fileName),
    ),
    diagnostics: diagnostics.map((d) => ts.formatDiagnostic(d, host).trim()),
  }),
);
