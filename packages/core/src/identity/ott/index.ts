export {
  ConsoleOneTimeTokenDelivery,
  type ConsoleOneTimeTokenDeliveryOptions,
} from "./console-one-time-token-delivery.js";
export { createOttFilters, type OttFiltersOptions } from "./create-ott-filters.js";
export {
  DeliveringGenerationSuccessHandler,
  type DeliveringGenerationSuccessHandlerOptions,
} from "./delivering-generation-success-handler.js";
export {
  DEFAULT_MAX_LIVE_TOKENS_PER_USER,
  DEFAULT_MAX_ONE_TIME_TOKENS,
  DEFAULT_ONE_TIME_TOKEN_TTL_MS,
  InMemoryOneTimeTokenService,
  type InMemoryOneTimeTokenServiceOptions,
  ONE_TIME_TOKEN_BYTES,
  ONE_TIME_TOKEN_FORMAT,
  type StoredOneTimeToken,
} from "./in-memory-one-time-token-service.js";
export {
  InMemoryOttGenerationLimiter,
  type InMemoryOttGenerationLimiterOptions,
} from "./in-memory-ott-generation-limiter.js";
export { type MagicLinkOptions, magicLinkFor } from "./magic-link.js";
export { OneTimeTokenDelivery, type OneTimeTokenMessage } from "./one-time-token-delivery.js";
export {
  type OneTimeTokenGenerationSuccessHandler,
  OTT_GENERATION_MESSAGE,
  writeGenerationAnswer,
} from "./one-time-token-generation-success-handler.js";
export {
  type ConsumeOneTimeTokenRequest,
  type GenerateOneTimeTokenRequest,
  hashOneTimeTokenValue,
  type OneTimeToken,
  OneTimeTokenService,
  oneTimeToken,
} from "./one-time-token-service.js";
export { MAX_OTT_TOKEN_LENGTH, MAX_OTT_USERNAME_LENGTH } from "./ott-filter-support.js";
export { OttGenerateFilter, type OttGenerateFilterOptions } from "./ott-generate-filter.js";
export {
  OTT_GENERATION_LIMITS_DEFAULTS,
  type OttGenerationKey,
  OttGenerationLimiter,
  type OttGenerationLimits,
  type OttGenerationVerdict,
} from "./ott-generation-limiter.js";
export { OttLoginFilter, type OttLoginFilterOptions } from "./ott-login-filter.js";
export { type OttSubmitPageModel, renderOttSubmitPage } from "./ott-submit-page.js";
export { OttSubmitPageFilter, type OttSubmitPageFilterOptions } from "./ott-submit-page-filter.js";
export {
  DEFAULT_OTT_OUTBOX_FILE,
  OutboxOneTimeTokenDelivery,
  type OutboxOneTimeTokenDeliveryOptions,
} from "./outbox-one-time-token-delivery.js";
export {
  OTT_DELIVERY,
  OTT_MAX_PER_IP,
  OTT_MAX_PER_USER,
  OTT_OUTBOX_FILE,
  OTT_PROPERTIES,
  OTT_RATE_WINDOW,
  OTT_TOKEN_TTL,
  type OttSettings,
  ottSettingsFromProperties,
} from "./ott.properties.js";
