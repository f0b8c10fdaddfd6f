import type { RouteContract } from "@keyward/core/web";
import { compilePathPattern } from "@keyward/core/web";

/** One OpenAPI path parameter, as the document lists it. */
export interface PathParameter {
  name: string;
  in: "path";
  required: true;
  description: string;
  schema: { type: "string"; pattern?: string };
}

/** A route's path in OpenAPI's template form and its parameters. */
export interface OpenApiPath {
  template: string;
  parameters: PathParameter[];
}

/** Default names of `*` and `**` segments a route's contract does not name. */
const UNNAMED = { any: "segment", rest: "path" } as const;

/**
 * Turns a route path of the one path language into an OpenAPI template: `{name}` stays (a
 * `{name:regex}` keeps its regex as the parameter's pattern), `*` and `**` become path parameters
 * named for what they hold (the contract's `pathParams`, in order; `segment` and `path` when it names
 * none). A `**` tail is described as the rest of the path: it may hold `/`, which OpenAPI's template
 * cannot say.
 */
export function openApiPath(path: string, contract: RouteContract | undefined): OpenApiPath {
  const pattern = compilePathPattern(path, "route");
  const named = [...(contract?.pathParams ?? [])];
  const parameters: PathParameter[] = [];
  const parts: string[] = [];
  for (const segment of pattern.segments) {
    if (segment.kind === "literal" || segment.kind === "partial") {
      parts.push(segment.text);
      continue;
    }
    if (segment.kind === "variable") {
      parts.push(`{${segment.name}}`);
      const given = named.find((p) => p.name === segment.name);
      parameters.push(
        param(segment.name, given?.description ?? `The \`${segment.name}\` path variable`, segment.regex),
      );
      continue;
    }
    const next = named.shift();
    const name = next?.name ?? UNNAMED[segment.kind];
    parts.push(`{${name}}`);
    const what = next?.description ?? (segment.kind === "rest" ? "The rest of the path" : "One path segment");
    parameters.push(
      param(
        name,
        segment.kind === "rest" ? `${what} (one or more segments; may contain \`/\`)` : what,
        undefined,
      ),
    );
  }
  return { template: `/${parts.join("/")}`, parameters };
}

function param(name: string, description: string, regex: string | undefined): PathParameter {
  return {
    name,
    in: "path",
    required: true,
    description,
    schema: regex === undefined ? { type: "string" } : { type: "string", pattern: `^(?:${regex})$` },
  };
}
