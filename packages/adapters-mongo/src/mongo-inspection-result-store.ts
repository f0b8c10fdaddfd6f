import { PlatformError } from "@keyward/core/errors";
import type { InspectionResultStore } from "@keyward/core/ports";
import type { Collection, Db, Filter } from "mongodb";

// The port's record and query types, read off its signatures (core exports the port alone: the surface cap).
type InspectionResult = Parameters<InspectionResultStore["save"]>[0];
type InspectionResultQuery = Parameters<InspectionResultStore["list"]>[0];
type InspectionResultPage = Awaited<ReturnType<InspectionResultStore["list"]>>;
type InspectionOutcome = NonNullable<Awaited<ReturnType<InspectionResultStore["latestInspectionOutcome"]>>>;

/** The `inspection_results` collection's document: the result, `_id` = its package id and inspector version. */
export type InspectionResultDocument = InspectionResult & {
  _id: { p: string; v: string };
};

/** Options of the MongoInspectionResultStore. */
export interface MongoInspectionResultStoreOptions {
  db: Db;
  /** Collection name (default `inspection_results`). */
  collection?: string;
}

/** The port's largest page and id list (INSPECTION_LIST_MAX_LIMIT in the core). */
const MAX_LIMIT = 500;
const LIST_SORT = { capturedAt: -1, packageId: -1, inspectorVersion: -1 } as const;
const LATEST_SORT = { inspectedAt: -1, inspectorVersion: -1 } as const;
const isTime = (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isName = (v: unknown) => typeof v === "string" && v !== "" && v.length <= 200;
const idOf = (packageId: string, inspectorVersion: string) => ({ p: packageId, v: inspectorVersion });
const invalid = (fields: string[]) =>
  new PlatformError("VALIDATION_FAILED", `Invalid ${fields.join(", ")}`, { details: { fields } });

function checkQuery(q: InspectionResultQuery): void {
  const fields: string[] = [];
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > MAX_LIMIT) fields.push("limit");
  for (const name of ["from", "to"] as const)
    if (q[name] !== undefined && !isTime(q[name])) fields.push(name);
  for (const name of ["inspectorVersion", "verdict", "check", "key"] as const)
    if (q[name] !== undefined && !isName(q[name])) fields.push(name);
  const a = q.after;
  if (a !== undefined && !(isTime(a.capturedAt) && isName(a.packageId) && isName(a.inspectorVersion)))
    fields.push("after");
  if (fields.length) throw invalid(fields);
}

function checkResult(r: InspectionResult): void {
  const fields = [
    ...(isName(r.packageId) ? [] : ["packageId"]),
    ...(isName(r.inspectorVersion) ? [] : ["inspectorVersion"]),
    ...(isTime(r.capturedAt) ? [] : ["capturedAt"]),
    ...(isTime(r.inspectedAt) ? [] : ["inspectedAt"]),
  ];
  if (fields.length) throw invalid(fields);
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function filterOf(q: InspectionResultQuery): Filter<InspectionResultDocument> {
  const and: Filter<InspectionResultDocument>[] = [];
  if (q.inspectorVersion !== undefined) and.push({ inspectorVersion: q.inspectorVersion });
  if (q.verdict !== undefined) and.push({ verdict: q.verdict });
  if (q.check !== undefined) and.push({ "findings.check": q.check } as Filter<InspectionResultDocument>);
  if (q.key !== undefined)
    and.push({
      "findings.key": { $regex: `^${escapeRegex(q.key)}([.:]|$)` },
    } as Filter<InspectionResultDocument>);
  if (q.from !== undefined) and.push({ capturedAt: { $gte: q.from } });
  if (q.to !== undefined) and.push({ capturedAt: { $lt: q.to } });
  const a = q.after;
  if (a !== undefined)
    and.push({
      $or: [
        { capturedAt: { $lt: a.capturedAt } },
        { capturedAt: a.capturedAt, packageId: { $lt: a.packageId } },
        { capturedAt: a.capturedAt, packageId: a.packageId, inspectorVersion: { $lt: a.inspectorVersion } },
      ],
    });
  return and.length ? { $and: and } : {};
}

const resultOf = ({ _id, ...result }: InspectionResultDocument): InspectionResult =>
  result as InspectionResult;

/**
 * InspectionResultStore on MongoDB: one document per package and inspector version (`_id`
 * `{ p, v }`), so a re-inspection's `save` is one `replaceOne` upsert of that document. `latest` is
 * one `find` on `packageId` sorted by `inspectedAt` (index `packageId_inspectedAt`); `inspected` one
 * `find` of `_id`s; `list` one `find` sorted by capture time (index `capturedAt_packageId_version`),
 * one more than the page asked to know whether another follows.
 */
export class MongoInspectionResultStore implements InspectionResultStore {
  private readonly docs: Collection<InspectionResultDocument>;

  constructor(o: MongoInspectionResultStoreOptions) {
    this.docs = o.db.collection<InspectionResultDocument>(o.collection ?? "inspection_results");
  }

  /** Creates the indexes `latest` and `list` read (idempotent; run at start). */
  async ensureIndexes(): Promise<void> {
    await this.docs.createIndexes([
      { key: { packageId: 1, ...LATEST_SORT }, name: "packageId_inspectedAt" },
      { key: LIST_SORT, name: "capturedAt_packageId_version" },
    ]);
  }

  async save(result: InspectionResult): Promise<void> {
    checkResult(result);
    const _id = idOf(result.packageId, result.inspectorVersion);
    // The upsert's insert takes `_id` from the filter; the replacement holds the result alone.
    await this.docs.replaceOne({ _id }, result, { upsert: true });
  }

  async get(packageId: string, inspectorVersion: string): Promise<InspectionResult | undefined> {
    if (!isName(packageId) || !isName(inspectorVersion)) return undefined;
    const doc = await this.docs.findOne({ _id: idOf(packageId, inspectorVersion) });
    return doc ? resultOf(doc) : undefined;
  }

  async latest(packageId: string): Promise<InspectionResult | undefined> {
    if (!isName(packageId)) return undefined;
    const [doc] = await this.docs.find({ packageId }, { sort: LATEST_SORT, limit: 1 }).toArray();
    return doc ? resultOf(doc) : undefined;
  }

  async inspected(packageIds: readonly string[], inspectorVersion: string): Promise<Set<string>> {
    if (!Array.isArray(packageIds) || packageIds.length > MAX_LIMIT) throw invalid(["packageIds"]);
    const ids = packageIds.filter(isName);
    if (ids.length === 0 || !isName(inspectorVersion)) return new Set();
    const docs = await this.docs
      .find({ _id: { $in: ids.map((p) => idOf(p, inspectorVersion)) } }, { projection: { packageId: 1 } })
      .toArray();
    return new Set(docs.map((d) => d.packageId));
  }

  async list(q: InspectionResultQuery): Promise<InspectionResultPage> {
    checkQuery(q);
    const docs = await this.docs.find(filterOf(q), { sort: LIST_SORT, limit: q.limit + 1 }).toArray();
    const results = docs.slice(0, q.limit).map(resultOf);
    const last = results.at(-1);
    return docs.length > q.limit && last
      ? {
          results,
          next: {
            capturedAt: last.capturedAt,
            packageId: last.packageId,
            inspectorVersion: last.inspectorVersion,
          },
        }
      : { results };
  }

  async latestInspectionOutcome(packageId: string): Promise<InspectionOutcome | undefined> {
    const r = await this.latest(packageId);
    if (r === undefined) return undefined;
    return (r.verdict === "PASS" || r.verdict === "NOT_APPLICABLE") && r.findings.length === 0
      ? "NOTHING_WRONG"
      : "FINDINGS";
  }
}
