import { NO_MFA_FOR_ADMINS, startDemo } from "../../support/demo-server.js";
import { describeLastAdministrator } from "./last-administrator-scenarios.js";

describeLastAdministrator("in memory", () => startDemo({}, NO_MFA_FOR_ADMINS));
