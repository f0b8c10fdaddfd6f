import type { InjectionToken } from "tsyringe";
import type { TokenService } from "./token-service.js";

/** DI token of the access/refresh token service of `.oauth2()` chains (built at start: keys load async). */
export const TokenServiceToken: InjectionToken<TokenService> = Symbol.for("platform.TokenService");
