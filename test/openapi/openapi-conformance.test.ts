import { writeFileSync } from "node:fs";
import { routeAnchor } from "@keyward/adapters-http";
import { RouteTable } from "@keyward/core/web";
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
let document: { paths: Record<string, Record<string, Operation>>; components: Schema };
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

const validators = new WeakMap<Schema, ReturnType<typeof ajv.compile>>();
/** A schema's validator, compiled once. */
function compiled(schema: Schema): ReturnType<typeof ajv.compile> {
  let validate = validators.get(schema);
  if (!validate) {
    // The document's components travel along, so `#/components/schemas/ErrorBody` resolves.
    validate = ajv.compile({ ...schema, components: document.components });
    validators.set(schema, validate);
  }
  return validate;
}

/** Sends one request as `caller` and checks the answer against the documented response for its status. */
async function check(
  d: Documented,
  caller: Caller,
  init: RequestInit = {},
  path = concrete(d.path),
): Promise<{ status: number; text: string }> {
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
    return { status: res.status, text };
  }
  const medias = Object.keys(documented.content ?? {});
  const type = res.headers.get("content-type") ?? "";
  const media = medias.find((m) => type.startsWith(m));
  if (medias.length === 0 || d.method === "HEAD") return { status: res.status, text };
  if (media === undefined)
    problems.push(`${where}: ${res.status} content-type ${type}, documented ${medias}`);
  else if (media === "application/json") {
    const validate = compiled(documented.content![media]!.schema);
    if (!validate(JSON.parse(text))) {
      problems.push(
        `${where}: ${res.status} body ${text.slice(0, 200)} breaks its schema: ${ajv.errorsText(validate.errors)}`,
      );
    }
  }
  return { status: res.status, text };
}

/** The generic requests: every caller, with an empty JSON object as the body where one is taken. */
async function sweep(d: Documented): Promise<void> {
  const body = d.op.requestBody ? { body: "{}", headers: { "content-type": "application/json" } } : {};
  for (const caller of ["anonymous", "bearer", "session"] as const) await check(d, caller, body);
}

function op(method: string, path: string): Documented {
  const found = operations().find((d) => d.method === method && d.path === path);
  if (!found) throw new Error(`${method} ${path} is not documented`);
  return found;
}

const asJson = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  body: typeof body === "string" ? body : JSON.stringify(body),
  headers: { "content-type": "application/json", accept: "application/json", ...headers },
});

/**
 * The answers an empty body cannot reach: sign-ins, a refresh, created resources, a cached document,
 * and malformed, missing, oversized and wrongly typed bodies; each checked against the document.
 */
async function scenarios(): Promise<void> {
  const login = op("POST", "/api/login");
  const signedIn = await check(login, "anonymous", asJson({ username: "user", password: "password" }));
  expect(signedIn.status).toBe(200);
  const { refreshToken } = JSON.parse(signedIn.text) as { refreshToken: string };
  expect((await check(op("POST", "/api/token/refresh"), "anonymous", asJson({ refreshToken }))).status).toBe(
    200,
  );
  expect((await check(login, "anonymous", asJson({ username: "user", password: "wrong" }))).status).toBe(401);
  expect((await check(login, "anonymous", asJson({ username: "user" }))).status).toBe(400);
  expect((await check(login, "anonymous", asJson('{"username":'))).status).toBe(400);
  expect((await check(login, "anonymous", asJson("x".repeat(1_100_000)))).status).toBe(413);
  const plain = { body: "username=user", headers: { "content-type": "text/plain" } };
  expect((await check(login, "anonymous", plain)).status).toBe(415);
  expect((await check(op("POST", "/ott/generate"), "session", asJson({ username: "user" }))).status).toBe(
    200,
  );
  const created = { username: "openapi-new", password: "a-long-enough-password-1" };
  expect((await check(op("POST", "/admin/api/users"), "session", asJson(created))).status).toBe(201);
  const order = await check(op("POST", "/api/orders"), "bearer", asJson({ item: "book", quantity: 2 }));
  expect(order.status).toBe(201);
  const orderId = (JSON.parse(order.text) as { id: string }).id;
  expect((await check(op("GET", "/api/orders/{id}"), "bearer", {}, `/api/orders/${orderId}`)).status).toBe(
    200,
  );
  expect((await check(op("DELETE", "/api/orders/{id}"), "bearer", {}, `/api/orders/${orderId}`)).status).toBe(
    200,
  );
  const etag = (await fetch(`${demo.base}/openapi.json`)).headers.get("etag") ?? "";
  expect(
    (await check(op("GET", "/openapi.json"), "anonymous", { headers: { "if-none-match": etag } })).status,
  ).toBe(304);
  const options = op("POST", "/webauthn/authenticate/options");
  expect((await check(options, "session", asJson({}))).status).toBe(200);
}

describe("the OpenAPI document and the demo's answers", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(
      structuredClone(document) as Parameters<Validator["validate"]>[0],
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("renders the reference page under the platform's CSP, one anchor per route of the table", async () => {
    const res = await fetch(`${demo.base}/docs/index.html`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    const html = await res.text();
    expect(html).not.toMatch(/<script|\son[a-z]+=/i);
    const names = new Set(
      demo.platform
        .resolve(RouteTable)
        .list()
        .map((r) => r.name),
    );
    expect(names.size).toBeGreaterThan(60);
    expect([...names].filter((name) => !html.includes(`<section id="${routeAnchor(name)}">`))).toEqual([]);
    expect(html).toContain('<section id="orders.cancel">');
  });

  it("documents every answer: each operation is exercised and answers a documented status with its schema", async () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(100);
    await scenarios();
    // Four operations at a time (they share no state but the administrator's sign-in, which none ends).
    const keeping = all.filter((d) => !ENDS_SIGN_IN.test(d.op.operationId));
    for (let i = 0; i < keeping.length; i += 4) await Promise.all(keeping.slice(i, i + 4).map(sweep));
    for (const d of all.filter((d) => ENDS_SIGN_IN.test(d.op.operationId))) await sweep(d);
    if (process.env.OPENAPI_PROBLEMS) writeFileSync(process.env.OPENAPI_PROBLEMS, problems.join("\n"));
    expect(problems).toEqual([]);
    expect(all.map((d) => d.op.operationId).filter((id) => !exercised.has(id))).toEqual([]);
  }, 60_000);
});
