import { PlatformError } from "../../kernel/platform-error.js";
import {
  antMatcher,
  anyRequest,
  orMatcher,
  type HttpMethod,
  type RequestMatcher,
} from "../../web/request-matcher.js";
import type { SecurityFilter } from "../chain/security-filter.js";
import {
  type AuthorizationManager,
  type AuthorizationRules,
  authorizationRules,
  type ContributedRules,
} from "./authorization-manager.js";
import type { ContributedRule } from "./contributed-rule.js";
import { accessTag, contributedTag, type StaticRuleTag } from "./static-rule-tag.js";

/** When a chain creates and reads the server-side session. */
export type SessionCreationPolicy = "always" | "ifRequired" | "never" | "stateless";

/** CORS settings of one chain (see CorsFilter for the semantics). */
export interface CorsSettings {
  allowedOrigins: string[];
  allowedMethods?: string[];
  allowedHeaders?: string[];
  exposedHeaders?: string[];
  allowCredentials?: boolean;
  maxAgeSeconds?: number;
}

/** Security headers of one chain; `false` for a header turns it off. */
export interface HeaderSettings {
  contentTypeOptions?: boolean;
  frameOptions?: "DENY" | "SAMEORIGIN" | false;
  referrerPolicy?: string | false;
  hsts?: { maxAgeSeconds: number; includeSubDomains: boolean } | false;
  contentSecurityPolicy?: string | false;
  cacheControl?: boolean;
}

/** Logout settings of one chain. */
export interface LogoutSettings {
  enabled: boolean;
  logoutUrl?: string;
  logoutSuccessUrl?: string;
}

/** One `authorizeHttpRequests` rule. */
export interface AuthorizationRule {
  matcher: RequestMatcher;
  manager: AuthorizationManager;
  /** What it checks, as the rule builder built it (absent for rules built by hand). */
  tag?: StaticRuleTag;
  /** The matchers `matcher` joins (one per `requestMatchers` argument; none for anyRequest). */
  matchers?: readonly RequestMatcher[];
}

/** A filter added relative to a named built-in filter. */
export interface AddedFilter {
  filter: SecurityFilter;
  position: "before" | "after" | "at";
  anchor: string;
}

/** Identity's own rules of the builder after `requestMatchers(...)` or `anyRequest()`. */
export interface OwnAuthorizedUrl<R> {
  permitAll(): R;
  denyAll(): R;
  authenticated(): R;
  anonymous(): R;
  hasRole(role: string): R;
  hasAnyRole(...roles: string[]): R;
  hasAuthority(authority: string): R;
  hasAnyAuthority(...authorities: string[]): R;
  /** A pluggable manager: the dynamic (database-driven) manager of the authorization module. */
  access(manager: AuthorizationManager): R;
}

/** The contributed rules (`ContributedRules`) as builder methods: same arguments, the builder back. */
export type ContributedAuthorizedUrl<R> = {
  [K in keyof ContributedRules]: ContributedRules[K] extends (...args: infer A) => AuthorizationManager
    ? (...args: A) => R
    : never;
};

/**
 * The rule builder after `requestMatchers(...)` or `anyRequest()`: identity's rules and those modules
 * contribute (the MFA module's `recentFactor(maxAgeMs)`).
 */
export type AuthorizedUrl<R> = OwnAuthorizedUrl<R> & ContributedAuthorizedUrl<R>;

/** Static authorization rules, top to bottom, ending with `anyRequest()`. */
export class AuthorizeHttpRequests {
  readonly rules: AuthorizationRule[] = [];
  private closed = false;
  private readonly table: AuthorizationRules;
  private readonly contributed: readonly string[];

  /** `contributed`: the rules the platform's plugins add (each a method of the rule builder). */
  constructor(contributed: readonly ContributedRule[] = []) {
    this.table = authorizationRules(contributed);
    this.contributed = contributed.map((c) => c.name);
  }

  /** Rules for requests matching any of the path patterns (optionally one method) or matchers. */
  requestMatchers(...targets: (string | RequestMatcher)[]): AuthorizedUrl<this>;
  requestMatchers(method: HttpMethod, ...patterns: string[]): AuthorizedUrl<this>;
  requestMatchers(...args: (string | RequestMatcher)[]): AuthorizedUrl<this> {
    if (this.closed) throw new PlatformError("CONFIGURATION_INVALID", "No rule may follow anyRequest()");
    const [first, ...rest] = args;
    const method = typeof first === "string" && /^[A-Z]+$/.test(first) ? (first as HttpMethod) : undefined;
    const targets = method ? rest : args;
    if (targets.length === 0)
      throw new PlatformError("CONFIGURATION_INVALID", "requestMatchers needs a pattern");
    const matchers = targets.map((t) => (typeof t === "string" ? antMatcher(t, method ?? "ANY") : t));
    return this.authorizedUrl(matchers.length === 1 ? matchers[0]! : orMatcher(...matchers), matchers);
  }

  /** The closing rule for every request no earlier rule matched. */
  anyRequest(): AuthorizedUrl<this> {
    const url = this.authorizedUrl(anyRequest(), []);
    this.closed = true;
    return url;
  }

  private authorizedUrl(matcher: RequestMatcher, matchers: readonly RequestMatcher[]): AuthorizedUrl<this> {
    const add = (manager: AuthorizationManager, tag: StaticRuleTag): this => {
      this.rules.push({ matcher, manager, tag, matchers });
      return this;
    };
    const rules = this.table;
    const own: OwnAuthorizedUrl<this> = {
      permitAll: () => add(rules.permitAll(), { kind: "permitAll" }),
      denyAll: () => add(rules.denyAll(), { kind: "denyAll" }),
      authenticated: () => add(rules.authenticated(), { kind: "authenticated" }),
      anonymous: () => add(rules.anonymous(), { kind: "anonymous" }),
      hasRole: (role) => add(rules.hasAnyRole(role), { kind: "roles", values: [role] }),
      hasAnyRole: (...roles) => add(rules.hasAnyRole(...roles), { kind: "roles", values: roles }),
      hasAuthority: (authority) =>
        add(rules.hasAnyAuthority(authority), { kind: "authorities", values: [authority] }),
      hasAnyAuthority: (...authorities) =>
        add(rules.hasAnyAuthority(...authorities), { kind: "authorities", values: authorities }),
      access: (manager) => add(manager, accessTag(manager)),
    };
    // A name no plugin contributed reaches the rule table's own prototype, which throws a clear error.
    const url = Object.assign(Object.create(Object.getPrototypeOf(rules)) as Record<string, unknown>, own);
    const table = rules as unknown as Record<string, (...args: unknown[]) => AuthorizationManager>;
    for (const name of this.contributed)
      url[name] = (...args: unknown[]) => add(table[name]!(...args), contributedTag(name, args));
    return url as unknown as AuthorizedUrl<this>;
  }
}

/**
 * The full HTTP security API of one chain, handed to `rawHttp(customizer)`: security matcher,
 * session creation policy, CSRF, CORS, headers, logout, extra filters and static authorization rules.
 * Every `rawHttp` call receives the same builder, so calls are cumulative.
 */
export class HttpSecurity {
  matcher: RequestMatcher | undefined;
  sessionCreationPolicy: SessionCreationPolicy;
  csrfEnabled: boolean;
  csrfIgnoring: RequestMatcher[] = [];
  corsSettings: CorsSettings | undefined;
  headerSettings: HeaderSettings | false = {};
  logoutSettings: LogoutSettings = { enabled: true };
  readonly addedFilters: AddedFilter[] = [];
  readonly authorization: AuthorizeHttpRequests;

  /** `contributedRules`: the static rules the platform's plugins add (ContributedRule family). */
  constructor(defaults: {
    sessionCreationPolicy: SessionCreationPolicy;
    csrf: boolean;
    contributedRules?: readonly ContributedRule[];
  }) {
    this.sessionCreationPolicy = defaults.sessionCreationPolicy;
    this.csrfEnabled = defaults.csrf;
    this.authorization = new AuthorizeHttpRequests(defaults.contributedRules);
  }

  /** Limits the chain to requests matching any of the patterns or matchers. */
  securityMatcher(...targets: (string | RequestMatcher)[]): this {
    if (targets.length === 0)
      throw new PlatformError("CONFIGURATION_INVALID", "securityMatcher needs a pattern");
    const matchers = targets.map((t) => (typeof t === "string" ? antMatcher(t) : t));
    this.matcher = matchers.length === 1 ? matchers[0] : orMatcher(...matchers);
    return this;
  }

  /** Session creation policy; `stateless` never reads or creates a session. */
  sessionManagement(policy: SessionCreationPolicy): this {
    this.sessionCreationPolicy = policy;
    return this;
  }

  /** CSRF protection: `{ disable: true }`, or patterns it ignores. */
  csrf(settings: { disable?: boolean; ignoring?: (string | RequestMatcher)[] }): this {
    if (settings.disable) this.csrfEnabled = false;
    for (const t of settings.ignoring ?? [])
      this.csrfIgnoring.push(typeof t === "string" ? antMatcher(t) : t);
    return this;
  }

  /** CORS for this chain (off unless configured). */
  cors(settings: CorsSettings | false): this {
    this.corsSettings = settings === false ? undefined : settings;
    return this;
  }

  /** Security headers (merged over the defaults), or `false` for none. */
  headers(settings: HeaderSettings | false): this {
    this.headerSettings = settings === false ? false : { ...(this.headerSettings || {}), ...settings };
    return this;
  }

  /** Logout URL and landing page, or `{ enabled: false }`. */
  logout(settings: Partial<LogoutSettings>): this {
    this.logoutSettings = { ...this.logoutSettings, ...settings };
    return this;
  }

  /** Adds a filter before the named built-in filter. */
  addFilterBefore(filter: SecurityFilter, anchor: string): this {
    this.addedFilters.push({ filter, position: "before", anchor });
    return this;
  }

  /** Adds a filter after the named built-in filter. */
  addFilterAfter(filter: SecurityFilter, anchor: string): this {
    this.addedFilters.push({ filter, position: "after", anchor });
    return this;
  }

  /** Static authorization rules, top to bottom. */
  authorizeHttpRequests(customizer: (rules: AuthorizeHttpRequests) => void): this {
    customizer(this.authorization);
    return this;
  }
}
