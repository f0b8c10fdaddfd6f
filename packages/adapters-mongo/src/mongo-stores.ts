import { coordinationStores } from "./coordination-stores.js";
import { decisionStores } from "./decision-stores.js";
import { governanceStores } from "./governance-stores.js";
import { inspectionStores } from "./inspection-stores.js";
import { identityStores } from "./identity-stores.js";
import { mfaAuthzStores } from "./mfa-authz-stores.js";
import type { MongoStoreRegistration } from "./mongo-store-registration.js";
import { recoveryCodeStores } from "./recovery-code-stores.js";
import { tokenStores } from "./token-stores.js";

/** Every port mongoPlugin replaces, by module (also what `inspectMongoStore` expects indexes of). */
export const MONGO_STORES: readonly MongoStoreRegistration[] = [
  ...identityStores,
  ...tokenStores,
  ...mfaAuthzStores,
  ...decisionStores,
  ...governanceStores,
  ...inspectionStores,
  ...coordinationStores,
  ...recoveryCodeStores,
];
