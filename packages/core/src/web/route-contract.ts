import type { ZodType } from "zod";

/**
 * What a route accepts and answers, for its OpenAPI operation: kept in `route.meta.contract` (a
 * route names its schemas there; the HTTP binding's document builder reads them). The zod schemas are
 * the ones the route validates with, so the document and the behaviour are one source. A route
 * without a contract is still documented from the table (method, path, access, description).
 */
export interface RouteContract {
  /**
   * The names of the path's `*` and `**` segments, in order, with what each holds (`policyId`, `path`):
   * the document shows each as a path parameter of that name. `{name}` variables keep their name.
   */
  readonly pathParams?: readonly { readonly name: string; readonly description: string }[];
  /** The query parameters: an object schema, one parameter per property (all strings on the wire). */
  readonly query?: ZodType;
  /** The body: its schema and the media types it is read from (`json`, `form` urlencoded). */
  readonly body?: {
    readonly schema: ZodType;
    readonly media: readonly ("json" | "form")[];
    /** False when an empty body is accepted (default true). */
    readonly required?: boolean;
  };
  /**
   * The route's own answers by status: a JSON body's schema, an HTML page, a script, a redirect
   * (`Location`), or no body. Error answers are not listed here but in `errors`.
   */
  readonly responses: Readonly<
    Record<
      number,
      {
        readonly description: string;
        readonly schema?: ZodType;
        readonly media?: "json" | "html" | "javascript" | "text" | "none";
        /** Response headers the answer carries, with what each holds (`location`, `allow`, `set-cookie`). */
        readonly headers?: Readonly<Record<string, string>>;
      }
    >
  >;
  /**
   * The error codes the route itself can answer; the platform's error tables give each its status.
   * Cross-cutting answers (401 for an `authenticated` route, 403 of an `admin` route, a malformed or
   * oversized body, CSRF) are added by the document builder from the route's facts.
   */
  readonly errors?: readonly string[];
  /**
   * The body of the route's error answers when it is not the error body (`{ code, message }`): the
   * sign-in endpoints answer `{ success: false, error, failureType, code }`.
   */
  readonly errorSchema?: ZodType;
}
