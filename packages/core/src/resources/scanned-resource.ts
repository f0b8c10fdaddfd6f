import type { InjectionToken } from "tsyringe";

/**
 * What a resource scanner finds and what the naming step adds: the contract between the scanners
 * (routes, `@Protectable` methods), the naming service and the managed-resource sync (issue 28).
 * The managed-resource record (status, permission, timestamps) is built from this by the sync.
 */

/** The kind of a managed resource: a URL route or a protected service method. */
export type ResourceType = "URL" | "METHOD";

/** The HTTP methods a URL resource may carry (`ANY` when the route takes every method). */
export type ResourceHttpMethod = "GET" | "HEAD" | "POST" | "PUT" | "PATCH" | "DELETE" | "OPTIONS" | "ANY";

/** One resource as a scanner found it, before the sync gives it a status. */
export interface ScannedResource {
  /**
   * The unique identifier: for URL resources the path pattern in the one path language (as policy
   * targets write it, e.g. `/api/orders/{id}`), unique together with `httpMethod`; for METHOD
   * resources the identifier METHOD policies use (`OrderService.get(string)`).
   */
  readonly resourceIdentifier: string;
  readonly resourceType: ResourceType;
  /** URL resources only. */
  readonly httpMethod?: ResourceHttpMethod;
  /** A name for people: the scanner's (handler or method name) until the naming step proposes one. */
  readonly friendlyName: string;
  readonly description: string;
  /** The owning module, controller or service class (simple name). */
  readonly serviceOwner: string;
  /** METHOD only: JSON array of the parameter type names. */
  readonly parameterTypes?: string;
  /** METHOD only: the return type name. */
  readonly returnType?: string;
  /** `{platform.iam.admin.rest-docs-path}#{route name}` for URL resources. */
  readonly apiDocsUrl?: string;
  /** METHOD only: where the method is declared. */
  readonly sourceCodeLocation?: string;
  /** The context variables conditions on this resource may use (e.g. path variables), JSON array. */
  readonly availableContextVariables?: string;
}

/** Discovers resources; the platform runs every registered scanner at start-up. */
export interface ResourceScanner {
  /** A short stable name (`routes`, `methods`), for logs and the sync's report. */
  readonly name: string;
  scan(): Promise<readonly ScannedResource[]>;
}

/** A proposed name and description for one resource. */
export interface ResourceName {
  readonly friendlyName: string;
  readonly description: string;
}

/**
 * Names resources after a scan: in batches through the `ResourceNamer` port, a failed batch retried
 * once, then fallback names. One answer per input, in input order; it never throws.
 */
export interface ResourceNaming {
  nameAll(resources: readonly ScannedResource[]): Promise<readonly ResourceName[]>;
}

/**
 * DI token of the ResourceScanner family: a plugin adds a scanner with
 * `ctx.registerMember(ResourceScanner, { useFactory: (c) => new MyScanner(...) })` (one member per
 * scanner, each with its own `name`); the resources plugin's start-up sync runs every member, in
 * registration order, after the policies load (`resources-sync` start hook). A scanner that throws
 * is logged and audited and its resources are left as they were (none is marked vanished).
 */
export const ResourceScanner: InjectionToken<ResourceScanner> = Symbol.for("platform.ResourceScanner");

/**
 * DI token of the optional ResourceNaming port: a plugin registers one with
 * `ctx.registerDefault(ResourceNaming, ...)` (a host replaces it with `override`). When one is
 * registered, the sync hands it the new resources (and those still carrying their scanner's name)
 * in the background after start-up; when none is, the scanners' names stay.
 */
export const ResourceNaming: InjectionToken<ResourceNaming> = Symbol.for("platform.ResourceNaming");
