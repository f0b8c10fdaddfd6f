/** The version of `window.PlatformMFA`, the browser SDK's public API (build/build-sdk.ts names the same). */
export const SDK_VERSION = "2.2.0";
