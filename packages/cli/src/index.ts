export {
  type CliCommand,
  type CliIo,
  CliFailure,
  CliUsageError,
  type CommandInput,
  EXIT_FAILED,
  EXIT_OK,
  EXIT_USAGE,
  type OptionSpec,
} from "./command-line/cli-command.js";
export { runCli } from "./command-line/run-cli.js";
export { PLATFORM_COMMANDS } from "./commands/index.js";
export { buildDemoPlatform, type DemoPlatform } from "./demo-platform.js";
export { routeListMarkdown, routeListText } from "./route-list.js";
export { definePlatformConfig, loadHostConfig, type HostConfig } from "./host-config.js";
export { startCommand, type RunningDemo, type StartOptions } from "./start-command.js";
export type { CloseOptions, RunningServer } from "./running-server.js";
export { serveCommand, type ServeOptions } from "./serve/serve-command.js";
export {
  API_MFA_PREFIX,
  DEMO_USERS,
  demoSecurity,
  demoSecurityWithApps,
  seedDemoUsers,
} from "./demo-security.js";
