import type { CliCommand } from "../command-line/cli-command.js";
import { adminCreateCommand } from "./admin-create.js";
import { breakGlassCommand } from "./break-glass.js";
import { bundlesCommands } from "./bundles.js";
import { doctorCommand } from "./doctor.js";
import { evidenceVerifyCommand } from "./evidence-verify.js";
import { keysCommands } from "./keys.js";
import { loginCommand, logoutCommand } from "./login.js";
import { openApiCliCommand } from "./openapi.js";
import { policiesCommands } from "./policies.js";
import { releasesCommands } from "./releases.js";
import { releasesEvidenceAddCommand } from "./releases-evidence.js";
import { resourcesCommands } from "./resources.js";
import { routesCliCommand } from "./routes.js";
import { serveCliCommand } from "./serve.js";
import { startCliCommand } from "./start.js";
import { usersCommands } from "./users.js";

/**
 * Every subcommand of `platform`. Local commands need no server (`start`, `serve`, `admin create`, `bundles ...`); admin commands act
 * through a running server's admin API with the caller's own identity (`login`, `users ...`, `resources ...`, `policies ...`, `releases ...`).
 */
export const PLATFORM_COMMANDS: readonly CliCommand[] = [
  startCliCommand,
  serveCliCommand,
  adminCreateCommand,
  routesCliCommand,
  openApiCliCommand,
  loginCommand,
  logoutCommand,
  ...usersCommands,
  ...resourcesCommands,
  ...policiesCommands,
  ...bundlesCommands,
  ...releasesCommands,
  releasesEvidenceAddCommand,
  evidenceVerifyCommand,
  breakGlassCommand,
  ...keysCommands,
  doctorCommand,
];
