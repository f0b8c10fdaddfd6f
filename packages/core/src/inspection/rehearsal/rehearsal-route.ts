import type { DependencyContainer, InjectionToken } from "tsyringe";
import { PayloadCipher } from "../../decisions/evidence/payload-cipher.js";
import { SealedEvidenceStore } from "../../decisions/evidence/sealed-evidence-store.js";
import { ReleaseEvidenceLedger } from "../../governance/evidence/release-evidence-ledger.js";
import { AuditSink } from "../../kernel/audit-sink.js";
import { Clock } from "../../kernel/clock.js";
import { KeyRing } from "../../kernel/keys/key-ring.js";
import { BundleCatalog } from "../../prompts/bundle-catalog-token.js";
import { RouteTable } from "../../web/route-table.js";
import { BundleRehearsal } from "./bundle-rehearsal.js";
import { RehearsalEndpoint } from "./rehearsal-endpoint.js";

/**
 * Adds `POST /platform/admin/api/prompt-inspection/rehearsals` to the route table when the platform
 * seals evidence and keeps a release evidence ledger (the decision pipeline and the governance
 * plugin); otherwise there is nothing to rehearse or to record, and no route.
 */
export function addRehearsalRoute(c: DependencyContainer): void {
  const needed: InjectionToken<unknown>[] = [
    RouteTable,
    SealedEvidenceStore,
    ReleaseEvidenceLedger,
    BundleCatalog,
    KeyRing,
  ];
  if (!needed.every((token) => c.isRegistered(token, true))) return;
  const rehearsal = new BundleRehearsal({
    store: c.resolve(SealedEvidenceStore),
    // Decrypts only: a rehearsal never seals, so it never asks for a new key.
    cipher: new PayloadCipher({ keys: c.resolve(KeyRing), newKid: () => "unused" }),
    catalog: c.resolve(BundleCatalog),
    ledger: c.resolve(ReleaseEvidenceLedger),
    audit: c.resolve(AuditSink),
    clock: c.resolve(Clock),
  });
  const endpoint = new RehearsalEndpoint({ rehearsal, audit: c.resolve(AuditSink), clock: c.resolve(Clock) });
  c.resolve(RouteTable).add(endpoint.route());
}
