// Small helpers of the conformance suite.
import type { Collection, Document } from "mongodb";
import { MongoServerError } from "mongodb";
import { expect } from "vitest";
import type { TargetRef } from "./describe-mongo-conformance.js";

let counter = 0;

/** A collection no other test of the run uses. */
export function freshCollection<T extends Document = Document>(ref: TargetRef, hint: string): Collection<T> {
  counter += 1;
  return ref().db.collection<T>(`${hint}_${counter}`);
}

/** Awaits `work`, expects a MongoServerError with `code`, and returns it. */
export async function expectServerError(work: Promise<unknown>, code: number): Promise<MongoServerError> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `expected server error ${code}`).toBeInstanceOf(MongoServerError);
  expect((error as MongoServerError).code).toBe(code);
  return error as MongoServerError;
}
