import type { InjectionToken } from "tsyringe";

/** What a package's latest inspection found: CLEAN (nothing wrong) or FINDINGS (anything else). */
export type LatestInspectionOutcome = "CLEAN" | "FINDINGS";

/**
 * The one thing retention needs from the inspector: the outcome of a package's latest inspection
 * (undefined when it was never inspected). The inspector's InspectionResultStore satisfies it; without
 * one, every package keeps the full retention period.
 */
export interface InspectionOutcomes {
  latestInspectionOutcome(packageId: string): Promise<LatestInspectionOutcome | undefined>;
}

/** DI token of the InspectionOutcomes read. */
export const InspectionOutcomes: InjectionToken<InspectionOutcomes> = Symbol.for(
  "platform.InspectionOutcomes",
);
