import type { KeyRing } from "../../kernel/keys/key-ring.js";
import type { ChainEntry } from "./chain-entry.js";
import { verifyPackageSeal } from "./package-seal-check.js";
import { PayloadCipher } from "./payload-cipher.js";

/**
 * The PACKAGE entries among `entries` whose kept payload does not open or does not match the hashes
 * its header seals (a changed prompt or context). Erased and dropped payloads are skipped. Opens
 * payloads with the key ring, so it runs where the key-encryption key is (a local verify); a ring that
 * does not open under the configured key-encryption key throws (CONFIGURATION_INVALID).
 */
export async function brokenPayloadsOf(entries: readonly ChainEntry[], keys: KeyRing): Promise<ChainEntry[]> {
  const cipher = new PayloadCipher({
    keys,
    newKid: () => {
      throw new Error("a verify makes no key");
    },
  });
  const broken: ChainEntry[] = [];
  for (const entry of entries) {
    if (entry.kind !== "PACKAGE" || entry.header === undefined || entry.payload?.wrappedKey === undefined)
      continue;
    const id = entry.packageIds[0]!;
    try {
      const payload = await cipher.decrypt(entry.payload, id, entry.entryHash);
      if (!verifyPackageSeal({ header: entry.header, packageHash: entry.entryHash, payload }).intact)
        broken.push(entry);
    } catch (error) {
      // A key ring that does not open (a wrong key-encryption key) is the operator's error, not the chain's.
      if ((error as { code?: unknown }).code !== "EVIDENCE_UNREADABLE") throw error;
      broken.push(entry);
    }
  }
  return broken;
}
