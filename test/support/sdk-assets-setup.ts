// Global setup: writes the browser SDK's prebuilt files (packages/sdk-browser/dist/browser/) from the
// sources before the tests run, once per run, so what the servers under test serve at /js is what
// the sources say now (an edit of the SDK since the last `pnpm install` or `pnpm build` included).
import { writeSdkAssets } from "../../packages/sdk-browser/build/write-sdk-assets.js";

let written: Promise<unknown> | undefined;

/** Writes the SDK's files once per vitest process, whichever project asks first. */
export default async function setup(): Promise<void> {
  written ??= writeSdkAssets();
  await written;
}
