import type { InjectionToken } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import { FACTOR_TYPE_PATTERN, type FactorType, parseFactorType } from "../factor-type.js";
import type { Factor, FactorDescription } from "./factor.js";

/**
 * The factor family as the MFA module reads it: the registered members, narrowed to the offered
 * ones (`platform.auth.mfa.factors`; empty offers every registered factor), in registration order.
 * A member with a bad type, a duplicate type, a generic factor without `urls` and `verify`, or an
 * offered type nobody registered stops start-up (CONFIGURATION_INVALID).
 */
export class FactorCatalog {
  private readonly byType = new Map<FactorType, Factor>();

  constructor(members: readonly Factor[], offered: readonly FactorType[] = []) {
    for (const member of members) {
      checkMember(member);
      if (this.byType.has(member.type)) refuse(`Factor ${member.type} is registered twice`, member.type);
      this.byType.set(member.type, member);
    }
    const unknown = offered.filter((t) => !this.byType.has(t));
    if (unknown.length > 0) refuse(`Offered factors nobody registered: ${unknown.join(", ")}`, unknown);
    if (offered.length > 0) {
      for (const type of [...this.byType.keys()]) if (!offered.includes(type)) this.byType.delete(type);
    }
  }

  /** The offered factor types, in registration order. */
  types(): FactorType[] {
    return [...this.byType.keys()];
  }

  /** The member of `type`, if offered. */
  get(type: FactorType): Factor | undefined {
    return this.byType.get(type);
  }

  /** Every offered member, in registration order. */
  members(): Factor[] {
    return [...this.byType.values()];
  }

  /** A client's factor type, one of the offered ones (else 400 VALIDATION_FAILED). */
  parse(value: unknown): FactorType {
    return parseFactorType(value, this.types());
  }

  /** The offered factors `userId` can use now (each member's `enrolled`), in registration order. */
  async enrolledFor(userId: string): Promise<FactorType[]> {
    const members = this.members();
    const ready = await Promise.all(members.map((m) => m.enrolled(userId)));
    return members.filter((_, i) => ready[i]).map((m) => m.type);
  }

  /** The `amr` value a verified `type` adds (`otp` for a factor nobody offers any more). */
  proves(type: FactorType): "otp" | "hwk" {
    return this.byType.get(type)?.proves ?? "otp";
  }
}

/** DI token of the MFA module's FactorCatalog (built from the Factor family at first use). */
export const FACTOR_CATALOG: InjectionToken<FactorCatalog> = Symbol.for("platform.FactorCatalog");

function checkMember(member: Factor): void {
  if (typeof member.type !== "string" || !FACTOR_TYPE_PATTERN.test(member.type)) {
    refuse("A factor's type must be 1-32 characters of A-Z, 0-9 and _, starting with a letter", member.type);
  }
  if (!Number.isInteger(member.lockoutWeight) || member.lockoutWeight < 1 || member.lockoutWeight > 10) {
    refuse(`Factor ${member.type}: lockoutWeight must be a whole number from 1 to 10`, member.type);
  }
  if (member.challengeState === "FACTOR_CHALLENGE" && (!member.urls || !member.verify)) {
    refuse(`Factor ${member.type}: a generic factor needs urls and verify`, member.type);
  }
}

function refuse(message: string, value: unknown): never {
  throw new PlatformError("CONFIGURATION_INVALID", message, {
    details: { key: "platform.auth.mfa.factors", value },
  });
}

/** The challenge state of `type` among `factors` (the state machine's lookup). */
export function challengeStateOf(
  factors: readonly FactorDescription[],
  type: FactorType,
): FactorDescription["challengeState"] | undefined {
  return factors.find((f) => f.type === type)?.challengeState;
}
