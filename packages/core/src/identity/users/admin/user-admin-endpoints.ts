import type { z } from "zod";
import { PlatformError } from "../../../kernel/platform-error.js";
import type { HttpExchange } from "../../../web/http-exchange.js";
import { type Authentication, currentAuthentication } from "../../authentication/authentication.js";
import { type ChainRoute, resourceRoutes } from "../../chain/chain-route.js";
import { USER_LIST_MAX_LIMIT } from "../user-repository.js";
import {
  AuthoritiesBody,
  CreateUserBody,
  EmailBody,
  ResetPasswordBody,
  USER_ADMIN_CONTRACTS as C,
  UserListQuery,
} from "./user-admin-contracts.js";
import type { UserAdministrationService, UserView } from "./user-administration-service.js";

/** Where the users admin API lives. */
export const USER_ADMIN_BASE_PATH = "/admin/api/users";
/** Longest user id looked up; longer ones are refused before the store sees them. */
export const MAX_USER_ID_LENGTH = 128;

const USER_ID = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_USER_ID_LENGTH}}$`);
const ACTIONS = ["disable", "enable", "unlock", "reset-password"] as const;
type Action = (typeof ACTIONS)[number];

/** The feature of the users admin API and the password-reset page in the route table. */
export const USER_ADMIN_FEATURE = "identity.users-admin";

const ACTION_DESCRIPTIONS: Record<Action, string> = {
  disable: "Disables a user and ends their sign-ins",
  enable: "Enables a user",
  unlock: "Unlocks a user locked out by failed sign-ins",
  "reset-password": "Sets a password, or mails a single-use reset link",
};

type Route =
  | { kind: "collection" }
  | { kind: "item"; id: string }
  | { kind: "action"; id: string; action: Action }
  | { kind: "authorities"; id: string }
  | { kind: "email"; id: string }
  | { kind: "factors-reset"; id: string };

/**
 * The users admin API (ADMIN only, checked here before the body is read; CSRF is the chain's, for
 * session callers; every change audited by the service): `GET <base>` lists (`q`, `offset`,
 * `limit`), `POST <base>` creates (201 + Location), `GET <base>/{id}` reads, `POST
 * <base>/{id}/disable|enable|unlock`, `POST <base>/{id}/reset-password` with `{password}` (set
 * it) or `{sendLink: true}` (mail a single-use reset link), `PUT <base>/{id}/authorities` with
 * `{authorities: [...]}`, `PUT <base>/{id}/email` with `{email: "…"}` or `{email: null}` (set or
 * clear the address), `POST <base>/{id}/factors/reset` (removes the authenticator app and recovery
 * codes: `{user, removed}`) and `DELETE <base>/{id}` (204). Answers never carry a password hash and
 * are `Cache-Control: no-store`.
 */
export class UserAdminEndpoints {
  constructor(private readonly service: UserAdministrationService) {}

  /** The collection, an item and its four actions: each its documented methods and ANY (405). */
  routes(): ChainRoute[] {
    const base = USER_ADMIN_BASE_PATH;
    const resource = { feature: USER_ADMIN_FEATURE, access: "admin" } as const;
    const routes = [
      ...resourceRoutes(
        { ...resource, path: base, handler: (x) => this.handle(x, { kind: "collection" }) },
        {
          GET: {
            name: "identity.users.list",
            description: "Lists users (q, offset, limit)",
            contract: C.list,
          },
          POST: { name: "identity.users.create", description: "Creates a user", contract: C.create },
        },
        { name: "identity.users.collection" },
      ),
      ...resourceRoutes(
        { ...resource, path: `${base}/*`, handler: (x, p) => this.handle(x, { kind: "item", id: p["*"]! }) },
        {
          GET: { name: "identity.users.get", description: "Reads one user", contract: C.get },
          DELETE: {
            name: "identity.users.delete",
            description: "Deletes a user and ends their sign-ins",
            contract: C.delete,
          },
        },
        { name: "identity.users.item" },
      ),
      ...this.accountPartRoutes(),
    ];
    for (const action of ACTIONS) {
      routes.push(
        ...resourceRoutes(
          {
            ...resource,
            path: `${base}/*/${action}`,
            handler: (x, p) => this.handle(x, { kind: "action", id: p["*"]!, action }),
          },
          {
            POST: {
              name: `identity.users.${action}`,
              description: ACTION_DESCRIPTIONS[action],
              contract: action === "reset-password" ? C["reset-password"] : C.action,
            },
          },
          { name: `identity.users.${action}.other` },
        ),
      );
    }
    return routes;
  }

  /** A user's parts: its authorities, its e-mail address, its plugin factors' reset. */
  private accountPartRoutes(): ChainRoute[] {
    const base = USER_ADMIN_BASE_PATH;
    const resource = { feature: USER_ADMIN_FEATURE, access: "admin" } as const;
    return [
      ...resourceRoutes(
        {
          ...resource,
          path: `${base}/*/authorities`,
          handler: (x, p) => this.handle(x, { kind: "authorities", id: p["*"]! }),
        },
        {
          PUT: {
            name: "identity.users.authorities",
            description: "Replaces a user's authorities and ends their sign-ins",
            contract: C.authorities,
          },
        },
        { name: "identity.users.authorities.other" },
      ),
      ...resourceRoutes(
        {
          ...resource,
          path: `${base}/*/email`,
          handler: (x, p) => this.handle(x, { kind: "email", id: p["*"]! }),
        },
        {
          PUT: {
            name: "identity.users.email",
            description: "Sets or clears a user's e-mail address (where their links and codes go)",
            contract: C.email,
          },
        },
        { name: "identity.users.email.other" },
      ),
      ...resourceRoutes(
        {
          ...resource,
          path: `${base}/*/factors/reset`,
          handler: (x, p) => this.handle(x, { kind: "factors-reset", id: p["*"]! }),
        },
        {
          POST: {
            name: "identity.users.factors-reset",
            description: "Removes a user's authenticator app and recovery codes (a lost phone)",
            contract: C["factors-reset"],
          },
        },
        { name: "identity.users.factors-reset.other" },
      ),
    ];
  }

  /** Serves one request to the API (ADMIN first, then the method, then the body). */
  async handle(exchange: HttpExchange, route: Route): Promise<void> {
    exchange.response.headers.set("cache-control", "no-store");
    const admin = currentAuthentication(exchange);
    if (!admin) throw new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    this.service.assertAdmin(admin, `http:${exchange.method}`);
    if (route.kind === "collection") return this.collection(exchange, admin);
    const id = checkId(route.id);
    if (route.kind === "item") {
      allow(exchange, ["GET", "DELETE"]);
      if (exchange.method === "DELETE") {
        await this.service.delete(id, admin);
        exchange.response.status = 204;
        exchange.response.body = undefined;
        exchange.response.committed = true;
        return;
      }
      exchange.json(200, view(await this.service.get(id, admin)));
      return;
    }
    if (route.kind === "authorities") {
      allow(exchange, ["PUT"]);
      const body = parse(AuthoritiesBody, await exchange.fields(["json"]));
      exchange.json(200, view(await this.service.setAuthorities(id, body.authorities, admin)));
      return;
    }
    if (route.kind === "email") {
      allow(exchange, ["PUT"]);
      const body = parse(EmailBody, await exchange.fields(["json"]));
      exchange.json(200, view(await this.service.setEmail(id, body.email, admin)));
      return;
    }
    allow(exchange, ["POST"]);
    if (route.kind === "factors-reset") {
      const { user, removed } = await this.service.resetFactors(id, admin);
      exchange.json(200, { user: view(user), removed });
      return;
    }
    exchange.json(200, view(await this.action(exchange, admin, id, route.action)));
  }

  private async collection(exchange: HttpExchange, admin: Authentication): Promise<void> {
    allow(exchange, ["GET", "POST"]);
    if (exchange.method === "GET") {
      const query = parse(UserListQuery, single(exchange.query));
      const limit = query.limit === undefined ? undefined : Number(query.limit);
      if (limit !== undefined && (limit < 1 || limit > USER_LIST_MAX_LIMIT)) {
        throw invalid("limit", `must be 1 to ${USER_LIST_MAX_LIMIT}`);
      }
      const users = await this.service.list(
        { text: query.q, offset: query.offset === undefined ? undefined : Number(query.offset), limit },
        admin,
      );
      exchange.json(200, users.map(view));
      return;
    }
    const body = parse(CreateUserBody, await exchange.fields(["json"]));
    const created = await this.service.create(body, admin);
    exchange.response.headers.set("location", `${USER_ADMIN_BASE_PATH}/${encodeURIComponent(created.id)}`);
    exchange.json(201, view(created));
  }

  private async action(
    exchange: HttpExchange,
    admin: Authentication,
    id: string,
    action: Action,
  ): Promise<UserView> {
    if (action === "reset-password") {
      const body = parse(ResetPasswordBody, await exchange.fields(["json"]));
      return "password" in body
        ? this.service.setPassword(id, body.password, admin)
        : this.service.sendResetLink(id, admin);
    }
    if (action === "unlock") return this.service.unlock(id, admin);
    return this.service.setEnabled(id, action === "enable", admin);
  }
}

function view(user: UserView): Record<string, unknown> {
  return { ...user };
}

function allow(exchange: HttpExchange, methods: readonly string[]): void {
  if (methods.includes(exchange.method)) return;
  exchange.response.headers.set("allow", methods.join(", "));
  throw new PlatformError("METHOD_NOT_ALLOWED", `Use ${methods.join(" or ")}`);
}

function checkId(id: string): string {
  if (!USER_ID.test(id))
    throw invalid("id", `must be 1 to ${MAX_USER_ID_LENGTH} letters, digits, '-' or '_'`);
  return id;
}

function single(query: URLSearchParams): Record<string, string> {
  const raw: Record<string, string> = {};
  for (const key of new Set(query.keys())) {
    const values = query.getAll(key);
    if (values.length > 1) throw invalid(key, "must be given at most once");
    raw[key] = values[0]!;
  }
  return raw;
}

function parse<T>(schema: z.ZodType<T>, input: unknown): T {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  // Never echo a password back, not even in a validation message.
  throw invalid(issue?.path.join(".") || "body", issue?.message ?? "is invalid");
}

function invalid(path: string, message: string): PlatformError {
  return new PlatformError("VALIDATION_FAILED", `The request is invalid: ${path} ${message}`, {
    details: { issues: [{ path, message }] },
  });
}
