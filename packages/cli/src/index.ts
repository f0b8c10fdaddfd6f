export { CliUsageError, USAGE, parseCliArgs, type CliArgs } from "./cli-args.js";
export { buildDemoPlatform, type DemoPlatform } from "./demo-platform.js";
export { definePlatformConfig, loadHostConfig, type HostConfig } from "./host-config.js";
export { startCommand, type RunningDemo } from "./start-command.js";
export { DEMO_USERS, demoSecurity, seedDemoUsers } from "./demo-security.js";
