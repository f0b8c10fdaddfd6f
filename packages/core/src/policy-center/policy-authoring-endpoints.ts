import { z } from "zod";
import type { PolicyAdministrationService } from "../authz/policy/policy-administration-service.js";
import { type Authentication, currentAuthentication } from "../identity/authentication/authentication.js";
import { csrfToken } from "../identity/csrf/csrf-token.js";
import type { AuditSink } from "../kernel/audit-sink.js";
import { isPlatformError, PlatformError } from "../kernel/platform-error.js";
import type { ManagedResourceRepository } from "../resources/managed-resource-repository.js";
import { type ConsoleNotice, type ConsoleSection, renderConsolePage } from "../web/console/console-page.js";
import type { HttpExchange } from "../web/http-exchange.js";
import { PAGE_SCRIPT_PATHS } from "../web/page-scripts.js";
import { listOf } from "./condition-templates.js";
import { type CreateTabModel, type CreateTabResource, newManualForm, renderCreateTab } from "./create-tab.js";
import { formErrorsOf } from "./manual-form-errors.js";
import {
  type FormErrors,
  type ManualPolicyForm,
  manualDraftOf,
  manualFormAction,
  readManualPolicyForm,
  sampleOf,
} from "./manual-policy-form.js";
import { applyTemplate } from "./manual-template-apply.js";
import { POLICY_AUTHORING_PATHS, POLICY_SAVED_LOCATION, PreviewBody } from "./policy-authoring-contracts.js";
import type { PolicyPreview, PolicyPreviewService } from "./policy-preview.js";
import { QuickCreateBody, type QuickCreateService } from "./quick-create.js";

/** Options of the PolicyAuthoringEndpoints. */
export interface PolicyAuthoringEndpointsOptions {
  pap: PolicyAdministrationService;
  preview: PolicyPreviewService;
  quick: QuickCreateService;
  resources: ManagedResourceRepository;
  audit: AuditSink;
  /** The console's navigation (the ConsoleSection family), read at each page. */
  sections: () => readonly ConsoleSection[];
  /**
   * Writes a page around the create tab's body. Default: the console shell with the navigation and
   * the page script; a console with a frame of its own (a tab bar) passes its writer here.
   */
  writePage?: (x: HttpExchange, page: AuthoringPage) => Promise<void>;
}

/** A page the authoring routes answer: status, notice, the create tab's body and the scripts it loads. */
export interface AuthoringPage {
  readonly status: number;
  readonly notice: ConsoleNotice | undefined;
  readonly body: string;
  readonly scripts: readonly string[];
}

const RESOURCE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The Policy Center's authoring endpoints (routes in policy-authoring-routes.ts): quick grant and
 * preview as JSON, the manual form's post, and the legacy authoring page. Each checks ADMIN before it
 * reads the request (anonymous: AUTHENTICATION_REQUIRED, which sends a browser's GET to sign in; a
 * user: ACCESS_DENIED, audited); CSRF is the chain's; every answer carries `Cache-Control: no-store`.
 */
export class PolicyAuthoringEndpoints {
  constructor(private readonly o: PolicyAuthoringEndpointsOptions) {}

  /** `POST …/api/quick-create`: 201 with the policy and the resource's new status. */
  async quickCreate(x: HttpExchange): Promise<void> {
    const admin = this.admin(x, ["POST"], "quick-create");
    const request = parse(QuickCreateBody, await x.fields(["json"]));
    const { policy, resource } = await this.o.quick.grant(request, admin);
    x.response.headers.set("location", `/admin/api/policies/${encodeURIComponent(policy.id)}`);
    x.json(201, {
      policy: { ...policy },
      resource: { id: resource.id, status: resource.status, version: resource.version },
    });
  }

  /** `POST …/api/preview`: the preview of a draft policy for a sample, changing nothing. */
  async previewJson(x: HttpExchange): Promise<void> {
    this.admin(x, ["POST"], "preview");
    const body = parse(PreviewBody, await x.fields(["json"]));
    x.json(200, { ...(await this.o.preview.preview(body.policy, body.sample ?? {})) });
  }

  /** `GET /admin/policy-builder/from-resource?resourceId=`: the create tab, pre-filled from the resource. */
  async fromResource(x: HttpExchange): Promise<void> {
    this.admin(x, ["GET", "HEAD"], "authoring-page");
    const ids = x.query.getAll("resourceId");
    const { status, body, notice } = await this.createTab(
      x,
      ids.length === 1 ? ids[0] : ids.length === 0 ? undefined : "",
    );
    await this.page(x, status, body, notice);
  }

  /**
   * The create tab for `resourceId` (absent: an empty form): 200 with the tab, 400 for a malformed
   * id and 404 for an unknown one (with an empty form and a notice). The console's `?tab=create` calls it.
   */
  async createTab(
    x: HttpExchange,
    resourceId: string | undefined,
  ): Promise<{ status: number; body: string; notice?: ConsoleNotice }> {
    if (resourceId !== undefined && !RESOURCE_ID.test(resourceId)) {
      const body = renderCreateTab(await this.model(x, newManualForm(), {}));
      return { status: 400, body, notice: { kind: "error", text: "The resource id is malformed." } };
    }
    const resource = resourceId === undefined ? undefined : await this.o.resources.findById(resourceId);
    if (resourceId !== undefined && !resource) {
      const body = renderCreateTab(await this.model(x, newManualForm(), {}));
      return { status: 404, body, notice: { kind: "error", text: "No such resource." } };
    }
    return {
      status: 200,
      body: renderCreateTab(await this.model(x, newManualForm(resource), {}, { resource })),
    };
  }

  /** `POST /admin/policy-center/create-policy`: preview, save, add a template's condition, or a quick grant. */
  async createPolicy(x: HttpExchange): Promise<void> {
    const admin = this.admin(x, ["POST"], "create-policy");
    const fields = await x.fields(["form"]);
    const form = readManualPolicyForm(fields);
    const action = manualFormAction(fields);
    if (!action) return this.refused(x, 400, form, { form: "Unknown action." });
    if (action.kind === "quick") return this.quickFromForm(x, form, fields, admin);
    if (action.kind === "template") {
      const applied = applyTemplate(form, action.templateId);
      return this.refusedOrShown(x, applied.form, applied.errors);
    }
    const errors: FormErrors = {};
    const built = manualDraftOf(form);
    const sample = sampleOf(form.sample, errors);
    const sampleWrong = action.kind === "preview" && Object.keys(errors).length > 0;
    if ("errors" in built || sampleWrong) {
      return this.refused(x, 422, form, { ...errors, ...("errors" in built ? built.errors : {}) });
    }
    try {
      if (action.kind === "preview") {
        const preview = await this.o.preview.preview(built.draft, sample);
        return this.refusedOrShown(x, form, {}, preview);
      }
      const policy = await this.o.pap.create(built.draft, admin);
      this.o.audit.record({
        type: "policy-center.create",
        outcome: "success",
        principal: admin.username,
        data: {
          policyId: policy.id,
          ...(RESOURCE_ID.test(form.resourceId) ? { resourceId: form.resourceId } : {}),
        },
      });
      x.redirect(POLICY_SAVED_LOCATION, 303);
    } catch (error) {
      // The store refusing the write (full, a lost race) is said on the form, values kept.
      if (isPlatformError(error, "CONFLICT")) return this.refused(x, 409, form, { form: error.message });
      const placed = formErrorsOf(error, built.rows);
      if (!placed) throw error;
      return this.refused(x, 422, form, placed);
    }
  }

  private async quickFromForm(
    x: HttpExchange,
    form: ManualPolicyForm,
    fields: Record<string, unknown>,
    admin: Authentication,
  ): Promise<void> {
    const text = (key: string) => (typeof fields[key] === "string" ? (fields[key] as string) : "");
    const quick = { roles: text("quick.roles"), permissions: text("quick.permissions") };
    const parsed = QuickCreateBody.safeParse({
      resourceId: form.resourceId,
      roles: listOf(quick.roles),
      permissions: listOf(quick.permissions),
    });
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where =
        issue?.path[0] === "permissions"
          ? "quick.permissions"
          : issue?.path[0] === "resourceId"
            ? "quick"
            : "quick.roles";
      return this.refused(x, 422, form, { [where]: issue?.message ?? "is invalid" }, quick);
    }
    try {
      await this.o.quick.grant(parsed.data, admin);
      x.redirect(POLICY_SAVED_LOCATION, 303);
    } catch (error) {
      if (
        !isPlatformError(error) ||
        !["NOT_FOUND", "ILLEGAL_STATE_TRANSITION", "VALIDATION_FAILED"].includes(error.code)
      )
        throw error;
      const status = error.code === "NOT_FOUND" ? 404 : error.code === "ILLEGAL_STATE_TRANSITION" ? 409 : 422;
      return this.refused(x, status, form, { quick: error.message }, quick);
    }
  }

  private refusedOrShown(
    x: HttpExchange,
    form: ManualPolicyForm,
    errors: FormErrors,
    preview?: PolicyPreview,
  ) {
    return this.refused(x, Object.keys(errors).length > 0 ? 422 : 200, form, errors, undefined, preview);
  }

  // Re-renders the create tab with the values kept and the errors next to their fields.
  private async refused(
    x: HttpExchange,
    status: number,
    form: ManualPolicyForm,
    errors: FormErrors,
    quick?: CreateTabModel["quick"],
    preview?: PolicyPreview,
  ): Promise<void> {
    const resource = RESOURCE_ID.test(form.resourceId)
      ? await this.o.resources.findById(form.resourceId)
      : undefined;
    const body = renderCreateTab(await this.model(x, form, errors, { resource, quick, preview }));
    await this.page(x, status, body, undefined);
  }

  private async model(
    x: HttpExchange,
    form: ManualPolicyForm,
    errors: FormErrors,
    extra: {
      resource?: CreateTabResource | undefined;
      quick?: CreateTabModel["quick"];
      preview?: PolicyPreview | undefined;
    } = {},
  ): Promise<CreateTabModel> {
    const token = csrfToken(x);
    return {
      form,
      errors,
      ...extra,
      csrf: token ? { parameterName: token.parameterName, token: await token.value() } : undefined,
      createPolicyUrl: POLICY_AUTHORING_PATHS.createPolicy,
      quickCreateUrl: POLICY_AUTHORING_PATHS.quickCreate,
    };
  }

  private async page(x: HttpExchange, status: number, body: string, notice: ConsoleNotice | undefined) {
    const page = { status, notice, body, scripts: [PAGE_SCRIPT_PATHS.policyCenterPage] };
    if (this.o.writePage) return this.o.writePage(x, page);
    const token = csrfToken(x);
    const html = renderConsolePage({
      title: "Policy Center",
      sections: this.o.sections(),
      active: "policy-center",
      csrfToken: token ? await token.value() : undefined,
      notice,
      body,
      scripts: page.scripts,
    });
    x.html(status, html);
  }

  private admin(x: HttpExchange, methods: readonly string[], action: string): Authentication {
    x.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(x);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.o.pap.assertAdmin(admin, `console:${action}`);
    if (!methods.includes(x.method)) {
      x.response.headers.set("allow", methods.join(", "));
      throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}`);
    }
    return admin;
  }
}

function parse<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.slice(0, 20).map((i) => ({
    path: i.path.map(String).join(".").slice(0, 300) || "body",
    message: i.message.slice(0, 300),
  }));
  throw new PlatformError(
    "VALIDATION_FAILED",
    `The request is invalid: ${issues[0]?.path} ${issues[0]?.message}`,
    {
      details: { issues },
    },
  );
}
