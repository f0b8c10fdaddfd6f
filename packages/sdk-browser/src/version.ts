/** The version of `window.PlatformMFA` (the spec's Browser SDK version). */
export const SDK_VERSION = "2.2.0";
