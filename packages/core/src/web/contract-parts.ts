import type { z } from "zod";
import type { RouteContract } from "./route-contract.js";

/** An answer of a RouteContract (one status). */
export type ContractAnswer = RouteContract["responses"][number];

/** An HTML page answer. */
export function htmlAnswer(description: string): ContractAnswer {
  return { description, media: "html" };
}

/** A JSON answer with its schema. */
export function jsonAnswer(description: string, schema: z.ZodType): ContractAnswer {
  return { description, media: "json", schema };
}

/** A redirect answer (no body; `Location` says where). */
export function redirectAnswer(description: string): ContractAnswer {
  return { description, media: "none", headers: { location: "Where the client goes next" } };
}

/** A page route's contract (GET and HEAD): 200 with the page, or a redirect where the page says so. */
export function pageContract(description: string, redirect?: string): RouteContract {
  const responses: Record<number, ContractAnswer> = { 200: htmlAnswer(description || "The page") };
  if (redirect) responses[302] = redirectAnswer(redirect);
  return { responses };
}

/** The contract of a resource's `ANY` route: every other method answers 405 with `Allow`. */
export const OTHER_METHODS_CONTRACT: RouteContract = { responses: {}, errors: ["METHOD_NOT_ALLOWED"] };

/** A `*` path segment's name and meaning, for `pathParams`. */
export function pathParam(name: string, description: string): { name: string; description: string } {
  return { name, description };
}
