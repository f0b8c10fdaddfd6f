import { InMemoryTotpEnrolmentStore } from "./in-memory-totp-enrolment-store.js";
import { describeTotpEnrolmentStoreContract } from "./totp-enrolment-store.contract.js";

describeTotpEnrolmentStoreContract("in memory", async () => new InMemoryTotpEnrolmentStore());
