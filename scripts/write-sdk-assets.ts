// `pnpm install` (the root's `prepare`) and `pnpm build`: the browser SDK's prebuilt files in
// packages/sdk-browser/dist/browser/, so the workspace serves the SDK with no build of its own.
import { SDK_ASSETS_DIR, writeSdkAssets } from "../packages/sdk-browser/build/write-sdk-assets.js";

const names = await writeSdkAssets();
console.log(`browser SDK: ${names.length} files in ${SDK_ASSETS_DIR}`);
