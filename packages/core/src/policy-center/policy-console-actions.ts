import { z } from "zod";
import type { Authentication } from "../identity/authentication/authentication.js";
import { type Policy, POLICY_EFFECTS } from "../authz/policy/policy.js";
import { isPlatformError } from "../kernel/platform-error.js";
import { MAX_REJECTION_REASON_LENGTH } from "../authz/policy/policy-administration-service.js";
import { POLICY_LIMITS } from "../authz/policy/policy-schema.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { type ConsoleNoticeCode, withNotice } from "./console-notices.js";
import { checkConsoleId, readForm, wholeNumber } from "./console-input.js";
import {
  consoleAdmin,
  errorBody,
  formToken,
  type PolicyCenterServices,
  withErrorPage,
  writeConsolePage,
} from "./console-answers.js";
import { policyHref, tabHref } from "./policy-center-paths.js";
import { policyHistorySection } from "./policy-history-slot.js";
import { renderPolicyPage } from "./policy-page.js";
import { renderShadowNotice, shadowsOf } from "./static-rules-console.js";
import { textToRules, textToTargets } from "./policy-text.js";

/** The moves a policy's page posts, besides `edit`. */
export const POLICY_MOVES = ["activate", "deactivate", "approve", "reject", "delete"] as const;
/** One move of a policy's page. */
export type PolicyMove = (typeof POLICY_MOVES)[number];

/** Longest targets and rules text the edit form takes (the policy schema bounds what they hold). */
export const MAX_TARGETS_TEXT = 64_000;
export const MAX_RULES_TEXT = 200_000;

/**
 * The edit form: the version it was read at (compare-and-set), name, description, priority,
 * effect, targets and rules as text (rules absent when the page could not show them).
 */
export const PolicyEditForm = z.strictObject({
  version: wholeNumber(1, 999_999_999),
  name: z.string().max(POLICY_LIMITS.nameMaxLength * 2),
  description: z.string().max(POLICY_LIMITS.descriptionMaxLength * 2),
  priority: wholeNumber(POLICY_LIMITS.priorityMin, POLICY_LIMITS.priorityMax),
  effect: z.enum(POLICY_EFFECTS),
  targets: z.string().max(MAX_TARGETS_TEXT),
  rules: z.string().max(MAX_RULES_TEXT).optional(),
});
const RejectForm = z.strictObject({ reason: z.string().max(MAX_REJECTION_REASON_LENGTH).optional() });
const EmptyForm = z.strictObject({});

const DONE: Record<PolicyMove | "edit", ConsoleNoticeCode> = {
  edit: "saved",
  activate: "activated",
  deactivate: "deactivated",
  approve: "approved",
  reject: "rejected",
  delete: "deleted",
};

/**
 * A policy form post: ADMIN first, then the id and the form; the PAP applies it (validated,
 * audited, reloaded) and the answer is 303 to the policy's page (the policies tab after a delete)
 * with a notice. A refused form, a stale version (409), a move the approval state does not allow
 * or an unknown policy answers the policy's page (or a 404 page) at that status with the notice.
 */
export async function policyAction(
  exchange: HttpExchange,
  services: PolicyCenterServices,
  rawId: string,
  action: PolicyMove | "edit",
): Promise<void> {
  const admin = consoleAdmin(exchange, services.policies, ["POST"]);
  await withErrorPage(
    exchange,
    async () => {
      const id = checkConsoleId(rawId);
      await apply(exchange, services, id, action, admin);
      const to = action === "delete" ? tabHref("policies") : policyHref(id);
      exchange.redirect(withNotice(to, DONE[action]), 303);
    },
    async (status, notice) => {
      const body = await policyBodyOrNothing(exchange, services, rawId, admin);
      await writeConsolePage(exchange, services, {
        status,
        tab: "policies",
        notice,
        body: body ?? errorBody(),
      });
    },
  );
}

async function apply(
  exchange: HttpExchange,
  services: PolicyCenterServices,
  id: string,
  action: PolicyMove | "edit",
  admin: Authentication,
): Promise<void> {
  const pap = services.policies;
  if (action === "edit") {
    const form = await readForm(exchange, PolicyEditForm);
    const current = await pap.get(id, admin);
    const changes = {
      name: form.name,
      description: form.description,
      priority: form.priority,
      effect: form.effect,
      targets: textToTargets(form.targets, current.targets),
      ...(form.rules === undefined ? {} : { rules: textToRules(form.rules) }),
    };
    await pap.update(id, form.version, changes as Parameters<typeof pap.update>[2], admin);
    return;
  }
  if (action === "reject") {
    const { reason } = await readForm(exchange, RejectForm);
    await pap.reject(id, admin, reason === undefined || reason.trim() === "" ? undefined : reason.trim());
    return;
  }
  await readForm(exchange, EmptyForm);
  await pap[action](id, admin);
}

function validId(id: string): boolean {
  try {
    checkConsoleId(id);
    return true;
  } catch {
    return false;
  }
}

/** A policy's page body, or undefined when the id is malformed or the policy unknown. */
export async function policyBodyOrNothing(
  exchange: HttpExchange,
  services: PolicyCenterServices,
  id: string,
  admin: Authentication,
): Promise<string | undefined> {
  if (!validId(id)) return undefined;
  let policy: Policy;
  try {
    policy = await services.policies.get(id, admin);
  } catch (error) {
    if (isPlatformError(error, "NOT_FOUND")) return undefined;
    throw error;
  }
  return renderPolicyPage({
    policy,
    csrfInput: await formToken(exchange),
    history: await policyHistorySection(services.history, policy.id),
    shadows: renderShadowNotice(shadowsOf(services, policy)),
  });
}
