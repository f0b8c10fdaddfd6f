import type { PlatformPlugin } from "@keyward/core";

/** `PLATFORM_*` variables the `platform` command reads itself (never properties). */
export const COMMAND_ENVIRONMENT = ["PLATFORM_CREDENTIALS", "PLATFORM_CONFIG_TSCONFIG"] as const;

/**
 * Declares the command's own variables to the platforms it builds, so the start does not warn of
 * them as unknown properties.
 */
export const commandEnvironmentPlugin: PlatformPlugin = {
  id: "platform-command",
  environment: COMMAND_ENVIRONMENT,
};
