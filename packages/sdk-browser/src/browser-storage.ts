/** The Web Storage areas the SDK may use. */
export type StorageArea = "localStorage" | "sessionStorage";

/**
 * The named storage, or undefined when the browser blocks it (privacy modes, sandboxed frames and
 * disabled cookies throw on the mere access of `window.localStorage`).
 */
export function browserStorage(area: StorageArea): Storage | undefined {
  try {
    const storage = (globalThis as unknown as Partial<Record<StorageArea, Storage>>)[area];
    return storage ?? undefined;
  } catch {
    return undefined;
  }
}

/** `getItem` that answers undefined instead of throwing. */
export function readItem(storage: Storage | undefined, key: string): string | undefined {
  try {
    return storage?.getItem(key) ?? undefined;
  } catch {
    return undefined;
  }
}

/** `setItem`; false when the storage refused (blocked, full). */
export function writeItem(storage: Storage | undefined, key: string, value: string): boolean {
  if (!storage) return false;
  try {
    storage.setItem(key, value);
    return true;
  } catch {
    return false;
  }
}

/** `removeItem` that never throws. */
export function removeItem(storage: Storage | undefined, key: string): void {
  try {
    storage?.removeItem(key);
  } catch {
    // A blocked storage holds nothing of ours.
  }
}
