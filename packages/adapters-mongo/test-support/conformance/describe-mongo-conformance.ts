// The semantics the MongoDB adapters rely on, as one suite that runs against the wire double and,
// with MONGODB_URI set, against a real server: the double may not agree on what MongoDB does not do.
import { afterAll, beforeAll, describe } from "vitest";
import { casConformance } from "./cas-conformance.js";
import { commandConformance } from "./command-conformance.js";
import { cursorConformance } from "./cursor-conformance.js";
import { indexConformance } from "./index-conformance.js";
import { leaseConformance } from "./lease-conformance.js";
import type { MongoTarget } from "./mongo-target.js";
import { validatorConformance } from "./validator-conformance.js";
import { writeConformance } from "./write-conformance.js";

/** Gets the target of the running suite (opened in `beforeAll`). */
export type TargetRef = () => MongoTarget;

/** Registers the whole conformance suite against the target `open` gives. */
export function describeMongoConformance(label: string, open: () => Promise<MongoTarget>): void {
  describe(label, () => {
    let target: MongoTarget | undefined;
    beforeAll(async () => {
      target = await open();
    });
    afterAll(async () => {
      await target?.close();
    });
    const ref: TargetRef = () => {
      if (!target) throw new Error("conformance target not open");
      return target;
    };
    commandConformance(ref);
    writeConformance(ref);
    cursorConformance(ref);
    casConformance(ref);
    leaseConformance(ref);
    indexConformance(ref);
    validatorConformance(ref);
  });
}
