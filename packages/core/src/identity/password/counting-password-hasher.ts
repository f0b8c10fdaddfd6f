import type { PasswordHasher } from "./password-hasher.js";

/**
 * A PasswordHasher decorator that counts calls, for tests that prove an unknown user costs the same
 * hash work as a known one (`work` = verifies + dummy verifies). Calls are counted before they are
 * delegated, so a call that throws still counts.
 */
export class CountingPasswordHasher implements PasswordHasher {
  private hashCount = 0;
  private verifyCount = 0;
  private dummyVerifyCount = 0;

  constructor(private readonly inner: PasswordHasher) {}

  /** Calls of `hash`. */
  get hashes(): number {
    return this.hashCount;
  }

  /** Calls of `verify`. */
  get verifies(): number {
    return this.verifyCount;
  }

  /** Calls of `dummyVerify`. */
  get dummyVerifies(): number {
    return this.dummyVerifyCount;
  }

  /** Verification work done: `verifies + dummyVerifies`. */
  get work(): number {
    return this.verifyCount + this.dummyVerifyCount;
  }

  /** Sets every counter back to zero. */
  reset(): void {
    this.hashCount = 0;
    this.verifyCount = 0;
    this.dummyVerifyCount = 0;
  }

  hash(password: string): Promise<string> {
    this.hashCount++;
    return this.inner.hash(password);
  }

  verify(password: string, encoded: string): Promise<boolean> {
    this.verifyCount++;
    return this.inner.verify(password, encoded);
  }

  needsRehash(encoded: string): boolean {
    return this.inner.needsRehash(encoded);
  }

  dummyVerify(password: string): Promise<void> {
    this.dummyVerifyCount++;
    return this.inner.dummyVerify(password);
  }
}
