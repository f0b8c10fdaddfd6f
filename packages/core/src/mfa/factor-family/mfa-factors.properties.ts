import { z } from "zod";
import { defineProperty } from "../../kernel/properties.js";
import { FACTOR_TYPE_PATTERN, type FactorType } from "../factor-type.js";

/** A comma-separated list of factor types (or an array in code/JSON); empty entries are dropped. */
const factorTypeList: z.ZodType<readonly FactorType[]> = z
  .union([z.string(), z.array(z.string())], { error: "must be a comma-separated list of factor types" })
  .transform((raw, ctx) => {
    const items = (typeof raw === "string" ? raw.split(",") : raw).map((s) => s.trim()).filter(Boolean);
    if (items.some((s) => !FACTOR_TYPE_PATTERN.test(s))) {
      ctx.addIssue({ code: "custom", message: "each factor type must be upper snake case (OTT, TOTP)" });
      return z.NEVER;
    }
    return Object.freeze([...new Set(items)]);
  });

/** The factor types MFA flows may offer; empty offers every registered factor. */
export const MFA_FACTORS = defineProperty<readonly FactorType[]>({
  key: "platform.auth.mfa.factors",
  schema: factorTypeList,
  default: Object.freeze([]),
  description:
    "Comma-separated factor types the MFA flows, step-up and policies may offer (e.g. OTT,PASSKEY,TOTP); " +
    "empty offers every registered factor. A type no plugin registered stops start-up.",
});
