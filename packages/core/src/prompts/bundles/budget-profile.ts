/** A token budget of one prompt: the whole call, and its system, user and output shares. */
export interface BudgetProfile {
  /** `L1-standard`, `L2-deep`, ... */
  readonly name: string;
  /** L1 is the first, fast analysis; L2 the second, deeper one. */
  readonly family: "L1" | "L2";
  readonly maxTokens: number;
  readonly systemTokens: number;
  readonly userTokens: number;
  readonly outputTokens: number;
}

/** The two profiles both runnable bundles declare (element B8). */
export const STANDARD_BUDGETS: readonly BudgetProfile[] = [
  {
    name: "L1-standard",
    family: "L1",
    maxTokens: 2000,
    systemTokens: 450,
    userTokens: 1150,
    outputTokens: 400,
  },
  { name: "L2-deep", family: "L2", maxTokens: 6000, systemTokens: 700, userTokens: 4300, outputTokens: 1000 },
];
