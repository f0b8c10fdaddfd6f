import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { PdpUnderTest } from "./pdp-under-test.js";
import { ReferencePdp } from "./reference-pdp.js";

/** Which PDP sits in the "ours" slot: the platform's when platform-pdp.ts exists (auto), or forced. */
export type PdpChoice = "auto" | "platform" | "reference";

/** The module the lead writes beside this file. */
export interface PlatformPdpModule {
  createPlatformPdp(): PdpUnderTest | Promise<PdpUnderTest>;
}

/** A factory for fresh instances of the PDP under test, and where it came from. */
export interface PdpFactory {
  readonly source: "platform" | "reference";
  /** The module it came from, for the report. */
  readonly location: string;
  create(): Promise<PdpUnderTest>;
}

const PLATFORM_PDP = new URL("./platform-pdp.ts", import.meta.url);

/**
 * Loads test/bench/authz/platform-pdp.ts (or `modulePath`, relative to the working directory) when
 * present; otherwise the reference stands in (and the report says so).
 */
export async function loadPdpFactory(choice: PdpChoice, modulePath?: string): Promise<PdpFactory> {
  const url = modulePath ? pathToFileURL(resolve(modulePath)) : PLATFORM_PDP;
  const present = existsSync(fileURLToPath(url));
  if (choice === "reference" || (choice === "auto" && !present)) {
    return {
      source: "reference",
      location: "test/bench/authz/reference-pdp.ts",
      create: async () => new ReferencePdp(),
    };
  }
  if (!present) throw new Error(`${fileURLToPath(url)} does not exist`);
  const loaded: unknown = await import(url.href);
  if (!isPlatformPdpModule(loaded)) {
    throw new Error(`${fileURLToPath(url)} must export createPlatformPdp(): PdpUnderTest`);
  }
  return { source: "platform", location: fileURLToPath(url), create: async () => loaded.createPlatformPdp() };
}

function isPlatformPdpModule(value: unknown): value is PlatformPdpModule {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { createPlatformPdp?: unknown }).createPlatformPdp === "function"
  );
}
