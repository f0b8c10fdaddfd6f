/** z for a two-sided 95 % interval (the 0.975 quantile of the standard normal). */
export const WILSON_Z_95 = 1.959963984540054;

/**
 * The lower end of the Wilson score interval (95 %) of `passed` successes in `trials` trials: the
 * pass rate a run can claim with confidence. Unlike the plain proportion it does not claim 1.0 from
 * a handful of passes (10 of 10 gives 0.722). 0 when there are no trials.
 */
export function wilsonLowerBound(passed: number, trials: number, z = WILSON_Z_95): number {
  if (trials <= 0) return 0;
  const p = passed / trials;
  const z2 = z * z;
  const centre = p + z2 / (2 * trials);
  const margin = z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  return Math.max(0, (centre - margin) / (1 + z2 / trials));
}
