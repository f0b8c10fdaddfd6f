import type { GoldenGroup } from "../golden-types.js";
import { escalation } from "./escalation.js";
import { formLogin } from "./form-login.js";
import { healthAndAssets } from "./health-and-assets.js";
import { mfaApi } from "./mfa-api.js";
import { mfaSession } from "./mfa-session.js";
import { ordersAndAudit } from "./orders-and-audit.js";
import { ott } from "./ott.js";
import { passkeys } from "./passkeys.js";
import { policiesAdmin } from "./policies-admin.js";
import { restAndTokens } from "./rest-and-tokens.js";
import { stepUp } from "./step-up.js";
import { usersAdmin } from "./users-admin.js";
import { zeroTrustAdmin } from "./zero-trust-admin.js";

/** Every endpoint group, in the order they are recorded (one answers file each). */
export const GOLDEN_GROUPS: readonly GoldenGroup[] = [
  healthAndAssets,
  formLogin,
  restAndTokens,
  ott,
  passkeys,
  mfaSession,
  mfaApi,
  stepUp,
  escalation,
  usersAdmin,
  policiesAdmin,
  zeroTrustAdmin,
  ordersAndAudit,
];
