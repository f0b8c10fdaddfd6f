import { writeFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Browser } from "../identity/identity-test-server.js";
import { bearerHeaders, NO_MFA_FOR_ADMINS, type RunningDemo, startDemo } from "../support/demo-server.js";

type Schema = Record<string, unknown>;
type Operation = {
  operationId: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
};
/** One documented operation: method, OpenAPI path and the operation object. */
type Documented = { method: string; path: string; op: Operation };
/** Who sends a request: nobody, an administrator's session (cookie and CSRF token), an administrator's token. */
type Caller = "anonymous" | "session" | "bearer";

/** Concrete values for path parameters, by name (anything else is `x1`). */
const SAMPLE: Record<string, string> = { path: "platform-mfa.js" };
/** Operations that end the caller's sign-in: sent last, so the others keep theirs. */
const ENDS_SIGN_IN = /^(identity\.logout|identity\.token-revoke|mfa\.cancel)/;

let demo: RunningDemo;
let document: { paths: Record<string, Record<string, Operation>> };
let session: { b: Browser; csrf: string };
let bearer: Record<string, string>;
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false });
const exercised = new Set<string>();
const problems: string[] = [];

beforeAll(async () => {
  demo = await startDemo({}, NO_MFA_FOR_ADMINS);
  document = (await (await fetch(`${demo.base}/openapi.json`)).json()) as typeof document;
  bearer = await bearerHeaders(demo.base, "admin", "admin");
  const b = new Browser(demo.base);
  const csrf = await b.csrfFrom("/login");
  expect((await b.postForm("/login", { username: "admin", password: "admin", _csrf: csrf })).status).toBe(
    302,
  );
  session = { b, csrf: await b.csrfFrom("/") };
}, 60_000);
afterAll(() => demo.close());

function operations(): Documented[] {
  const out: Documented[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) out.push({ method: method.toUpperCase(), path, op });
  }
  return out;
}

/** The request path of an OpenAPI path: each `{name}` becomes its sample value. */
function concrete(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_m, name: string) => SAMPLE[name] ?? "x1");
}

/** Sends one request as `caller` and checks the answer against the documented response for its status. */
async function check(
  d: Documented,
  caller: Caller,
  init: RequestInit = {},
  path = concrete(d.path),
): Promise<number> {
  const headers = new Headers(init.headers);
  if (caller === "bearer") for (const [k, v] of Object.entries(bearer)) headers.set(k, v);
  if (caller === "session" && !["GET", "HEAD"].includes(d.method)) headers.set("x-csrf-token", session.csrf);
  const client = caller === "session" ? session.b : new Browser(demo.base);
  const res = await client.fetch(path, { ...init, method: d.method, headers });
  exercised.add(d.op.operationId);
  const where = `${d.method} ${path} as ${caller} (${d.op.operationId})`;
  const documented = d.op.responses[String(res.status)];
  const text = await res.text();
  if (!documented) {
    problems.push(`${where}: status ${res.status} is not documented (${text.slice(0, 160)})`);
    return res.status;
  }
  const medias = Object.keys(documented.content ?? {});
  const type = res.headers.get("content-type") ?? "";
  const media = medias.find((m) => type.startsWith(m));
  if (medias.length === 0 || d.method === "HEAD") return res.status;
  if (media === undefined)
    problems.push(`${where}: ${res.status} content-type ${type}, documented ${medias}`);
  else if (media === "application/json") {
    const validate = ajv.compile(documented.content![media]!.schema);
    if (!validate(JSON.parse(text))) {
      problems.push(
        `${where}: ${res.status} body ${text.slice(0, 200)} breaks its schema: ${ajv.errorsText(validate.errors)}`,
      );
    }
  }
  return res.status;
}

/** The generic requests: every caller, with an empty JSON object as the body where one is taken. */
async function sweep(d: Documented): Promise<void> {
  const body = d.op.requestBody ? { body: "{}", headers: { "content-type": "application/json" } } : {};
  for (const caller of ["anonymous", "bearer", "session"] as const) await check(d, caller, body);
}

describe("the OpenAPI document and the demo's answers", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(
      structuredClone(document) as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("documents every answer: each operation is exercised and answers a documented status with its schema", async () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    for (const d of all.filter((d) => !ENDS_SIGN_IN.test(d.op.operationId))) await sweep(d);
    for (const d of all.filter((d) => ENDS_SIGN_IN.test(d.op.operationId))) await sweep(d);
    if (process.env.OPENAPI_PROBLEMS) writeFileSync(process.env.OPENAPI_PROBLEMS, problems.join("\n"));
    expect(problems).toEqual([]);
    expect(all.map((d) => d.op.operationId).filter((id) => !exercised.has(id))).toEqual([]);
  }, 60_000);
});
