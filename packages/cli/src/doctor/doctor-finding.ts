/** How bad a finding is: an `error` makes `platform doctor` exit 1. */
export type FindingSeverity = "error" | "warning" | "info";

/** One thing `platform doctor` found: a stable code, its severity, what is wrong and what to do. */
export interface DoctorFinding {
  code: string;
  severity: FindingSeverity;
  message: string;
  fix?: string;
}

/** One line: `ERROR   CODE  message (fix: ...)`. Never carries a secret: findings name properties, not values. */
export function findingLine(f: DoctorFinding): string {
  return `${f.severity.toUpperCase().padEnd(7)} ${f.code}  ${f.message}${f.fix ? ` (fix: ${f.fix})` : ""}`;
}
