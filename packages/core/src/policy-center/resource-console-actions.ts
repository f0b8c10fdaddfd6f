import { z } from "zod";
import { UNSAFE_TEXT } from "../kernel/unsafe-text.js";
import type { Authentication } from "../identity/authentication/authentication.js";
import type { ResourceAction } from "../resources/resource-lifecycle.js";
import { MAX_RESOURCE_NAME_LENGTH } from "../resources/resource-admin-endpoints.js";
import type { HttpExchange } from "../web/http-exchange.js";
import type { ConsoleNoticeCode } from "./console-notices.js";
import { withNotice } from "./console-notices.js";
import { checkConsoleId, readForm, wholeNumber } from "./console-input.js";
import {
  backQuery,
  MAX_BACK_LENGTH,
  type ResourceQuery,
  resourceFilterOf,
  resourcePageOf,
  resourceQueryString,
} from "./console-query.js";
import {
  consoleAdmin,
  formToken,
  type PolicyCenterServices,
  withErrorPage,
  writeConsolePage,
} from "./console-answers.js";
import { tabHref } from "./policy-center-paths.js";
import { renderResourcesTab } from "./resources-tab.js";

const version = wholeNumber(1, 999_999_999);
const back = z.string().max(MAX_BACK_LENGTH).optional();

/** The define form: the (edited or accepted) proposed name, the version read, the filter to return to. */
export const DefineForm = z.strictObject({
  friendlyName: z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(MAX_RESOURCE_NAME_LENGTH)
    .refine((s) => !UNSAFE_TEXT.test(s), "must not contain control or format characters"),
  version,
  back,
});
/** The exclude and restore forms: the version read and the filter to return to. */
export const MoveForm = z.strictObject({ version, back });

const DONE: Record<ResourceAction, ConsoleNoticeCode> = {
  define: "defined",
  exclude: "excluded",
  restore: "restored",
};

/**
 * A resource form post (console and legacy workbench): ADMIN first, then the id and the form;
 * the service moves the resource (compare-and-set on the version the form carries, audited) and
 * the answer is 303 back to the resources tab with the filter it came from and a notice. A refused
 * form, an unknown id, a stale version or a move the status does not allow answers the tab at that
 * status with the error's notice.
 */
export async function resourceAction(
  exchange: HttpExchange,
  services: PolicyCenterServices,
  rawId: string,
  action: ResourceAction,
): Promise<void> {
  const admin = consoleAdmin(exchange, services.resources, ["POST"]);
  let returnTo: ResourceQuery = {};
  await withErrorPage(
    exchange,
    async () => {
      const id = checkConsoleId(rawId);
      const form = await readForm(exchange, action === "define" ? DefineForm : MoveForm);
      returnTo = backQuery(form.back);
      if (action === "define") {
        const { friendlyName } = form as z.infer<typeof DefineForm>;
        await services.resources.define(id, { friendlyName, version: form.version }, admin);
      } else {
        await services.resources[action](id, admin, form.version);
      }
      exchange.redirect(withNotice(tabHref("resources", resourceQueryString(returnTo)), DONE[action]), 303);
    },
    async (status, notice) => {
      const body = await resourcesTabBody(exchange, services, returnTo, admin);
      await writeConsolePage(exchange, services, { status, tab: "resources", notice, body });
    },
  );
}

/** The resources tab's body for a filter, read through the service. */
export async function resourcesTabBody(
  exchange: HttpExchange,
  services: PolicyCenterServices,
  query: ResourceQuery,
  admin: Authentication,
): Promise<string> {
  const { offset, limit } = resourcePageOf(query);
  const page = await services.resources.list(resourceFilterOf(query), { offset, limit }, admin);
  return renderResourcesTab({
    query,
    items: page.items,
    total: page.total,
    offset,
    limit,
    csrfInput: await formToken(exchange),
  });
}
