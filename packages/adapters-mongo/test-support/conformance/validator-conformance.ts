// Collection validators: the release heads' "one ACTIVE release per prompt key and template" ($expr).
import { describe, expect, it } from "vitest";
import { RELEASE_HEAD_VALIDATOR } from "../../src/mongo-release-registry.js";
import { expectServerError } from "./conformance-helpers.js";
import type { TargetRef } from "./describe-mongo-conformance.js";

let counter = 0;
const release = (status: string, templateKey = "default", promptKey = "security-decision") => ({
  promptKey,
  templateKey,
  status,
});

/** A validator given to `create` holds on every write path, with 121, and is listed with the collection. */
export function validatorConformance(ref: TargetRef): void {
  describe("validators", () => {
    it("refuses a document that fails the release heads' validator on every write path, with 121", async () => {
      counter += 1;
      const coll = await ref().db.createCollection(`validated_${counter}`, {
        validator: RELEASE_HEAD_VALIDATOR,
      });
      const one = [
        release("ACTIVE"),
        release("CANARY"),
        release("ACTIVE", "strict"),
        release("ACTIVE", "default", "mfa"),
      ];
      await coll.insertOne({ _id: "s1" as never, revision: 1, releases: one });
      const two = [release("ACTIVE"), release("ACTIVE")];
      await expectServerError(coll.insertOne({ _id: "s2" as never, revision: 1, releases: two }), 121);
      await expectServerError(coll.updateOne({ _id: "s1" as never }, { $set: { releases: two } }), 121);
      await expectServerError(
        coll.findOneAndUpdate({ _id: "s1" as never }, { $set: { releases: two } }),
        121,
      );
      await expectServerError(coll.replaceOne({ _id: "s1" as never }, { revision: 2, releases: two }), 121);
      await expectServerError(
        coll.updateOne({ _id: "s3" as never }, { $set: { releases: two } }, { upsert: true }),
        121,
      );
      expect(await coll.find({}).toArray()).toEqual([{ _id: "s1", revision: 1, releases: one }]);
      await coll.updateOne({ _id: "s1" as never }, { $set: { releases: [], revision: 2 } });
      expect(await coll.countDocuments({ revision: 2 })).toBe(1);
      const [listed] = await ref().db.listCollections({ name: coll.collectionName }).toArray();
      expect((listed as { options?: { validator?: unknown } }).options?.validator).toEqual(
        RELEASE_HEAD_VALIDATOR,
      );
      await expectServerError(
        ref().db.createCollection(coll.collectionName, { validator: RELEASE_HEAD_VALIDATOR }),
        48,
      );
    });
  });
}
