import type { TotpEnrolment, TotpEnrolmentStore } from "./totp-enrolment-store.js";

/** The in-memory TotpEnrolmentStore (one process); each method is one synchronous step, so atomic. */
export class InMemoryTotpEnrolmentStore implements TotpEnrolmentStore {
  private readonly rows = new Map<string, TotpEnrolment>();

  async find(userId: string): Promise<TotpEnrolment | undefined> {
    const row = this.rows.get(userId);
    return row && { ...row };
  }

  async begin(e: { userId: string; sealedSecret: string; createdAt: number }): Promise<boolean> {
    if (this.rows.get(e.userId)?.confirmed) return false;
    this.rows.set(e.userId, { ...e, confirmed: false });
    return true;
  }

  async confirm(userId: string, sealedSecret: string, step: number): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.confirmed || row.sealedSecret !== sealedSecret) return false;
    this.rows.set(userId, { ...row, confirmed: true, lastStep: step });
    return true;
  }

  async recordConfirmFailure(userId: string, sealedSecret: string, max: number): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row || row.confirmed || row.sealedSecret !== sealedSecret) return false;
    const confirmFailures = (row.confirmFailures ?? 0) + 1;
    if (confirmFailures >= max) return this.rows.delete(userId);
    this.rows.set(userId, { ...row, confirmFailures });
    return false;
  }

  async claimStep(userId: string, step: number): Promise<boolean> {
    const row = this.rows.get(userId);
    if (!row?.confirmed || (row.lastStep !== undefined && step <= row.lastStep)) return false;
    this.rows.set(userId, { ...row, lastStep: step });
    return true;
  }

  async remove(userId: string): Promise<boolean> {
    return this.rows.delete(userId);
  }
}
