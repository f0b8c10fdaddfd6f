import { CheckFindings } from "../check-findings.js";
import type { InspectedPackage } from "../inspected-package.js";
import type { InspectionContext, PromptView } from "../inspection-context.js";

/** What a seal verifier says of one package (the `sealed` helper's package hash and per-prompt hashes). */
export type SealVerification =
  | { readonly state: "NOT_SEALED" }
  | { readonly state: "INTACT" }
  | {
      readonly state: "BROKEN";
      /** Stable reason (`PACKAGE_HASH_DIFFERS`, `PROMPT_HASH_DIFFERS`, ...). */
      readonly reason: string;
      readonly detail: string;
      /** The prompt (index) and part whose hash differs, when one does. */
      readonly prompt?: number;
      readonly part?: "system" | "user";
    };

/** Recomputes and checks a package's seal: pure, no I/O. */
export type SealVerifier = (pkg: InspectedPackage) => SealVerification;

/** The seal verifier of a build whose packages carry no seal yet: every package is NOT_SEALED. */
export const noSealYet: SealVerifier = () => ({ state: "NOT_SEALED" });

function firstDifferentLine(a: string, b: string): number {
  const x = a.split("\n");
  const y = b.split("\n");
  let i = 0;
  while (i < x.length && x[i] === y[i]) i++;
  return i + 1;
}

function checkSeal(ctx: InspectionContext, verifySeal: SealVerifier, out: CheckFindings): void {
  const seal = verifySeal(ctx.pkg);
  out.count();
  if (seal.state === "NOT_SEALED")
    out.unverifiable(
      "NOT_SEALED",
      "the package carries no seal: its hash and its prompts' hashes cannot be checked",
    );
  if (seal.state !== "BROKEN") return;
  const view = seal.prompt === undefined ? undefined : ctx.prompts[seal.prompt];
  out.mismatch(seal.reason, seal.detail, { location: view?.at(undefined, seal.part ?? "user") });
}

function checkIds(ctx: InspectionContext, out: CheckFindings): void {
  const { pkg } = ctx;
  out.count(3);
  for (const [name, value] of [
    ["package id", pkg.id],
    ["request (event) id", pkg.eventId],
  ] as const)
    if (typeof value !== "string" || value.trim() === "")
      out.mismatch("ID_MISSING", `the ${name} is missing`);
  if (pkg.correlationId === undefined || pkg.correlationId.trim() === "")
    out.unverifiable(
      "NO_CORRELATION_ID",
      "the package names no correlation id: it cannot be tied to its request's records",
    );
  if (pkg.prompts.length === 0) out.mismatch("PROMPT_MISSING", "the package holds no prompt");
}

function checkRender(view: PromptView, out: CheckFindings): void {
  const expected = view.expected!;
  for (const part of ["system", "user"] as const) {
    out.count();
    const sent = view.prompt[part];
    if (typeof sent !== "string" || sent === "") {
      out.mismatch("PROMPT_MISSING", `the ${view.prompt.layer} ${part} prompt was not captured`, {
        location: view.at(undefined, part),
      });
      continue;
    }
    if (sent === expected[part]) continue;
    const line = firstDifferentLine(sent, expected[part]);
    out.mismatch(
      "RENDER_DIFFERS",
      `the ${view.prompt.layer} ${part} prompt differs from the bundle's render of the sealed context from line ${line}`,
      { location: view.at(line, part) },
    );
  }
}

/**
 * SEAL_INTEGRITY: the seal (package hash over every sealed field, each prompt against its hash) by
 * the given verifier; request and correlation ids present; and each prompt against what the
 * package's bundle renders from the sealed context (a difference is a MISMATCH on its first line).
 */
export function sealIntegrity(ctx: InspectionContext, verifySeal: SealVerifier): CheckFindings {
  const out = new CheckFindings("SEAL_INTEGRITY");
  checkSeal(ctx, verifySeal, out);
  checkIds(ctx, out);
  if (ctx.unreproducible) {
    out.count();
    out.unverifiable(
      ctx.unreproducible.reason,
      `${ctx.unreproducible.detail}: the prompts cannot be rendered again`,
    );
    return out;
  }
  for (const view of ctx.prompts) {
    if (view.expected) checkRender(view, out);
    else
      out.unverifiable(
        "NO_BUDGET_PROFILE",
        `the bundle has no ${view.prompt.layer} budget profile to render with`,
        { location: view.at() },
      );
  }
  return out;
}
