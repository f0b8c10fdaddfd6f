import type { DependencyContainer, InjectionToken } from "tsyringe";
import { instanceCachingFactory } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import type { Authentication } from "../../identity/authentication/authentication.js";
import type { MethodAuthorizationManager, MethodDecision } from "./method-authorization-manager.js";
import { type ProtectableMethod, protectableMethodsOf } from "./protectable.js";
import type { SecurityContextHolder } from "./security-context-holder.js";

const AsyncFunction = (async () => {}).constructor;

/**
 * Wraps services so their `@Protectable` methods are authorized: a Proxy decides before each call
 * (a refusal never runs the method) and, for ownership or return-value policies, on the value
 * (sync or awaited) before the caller sees it. Other members pass through untouched.
 */
export class MethodSecurity {
  private readonly classes = new Set<abstract new (...args: never[]) => object>();

  constructor(
    private readonly manager: MethodAuthorizationManager,
    private readonly context: SecurityContextHolder,
  ) {}

  /** A protected view of `instance` (the instance itself when it has no `@Protectable` method). */
  protect<T extends object>(instance: T): T {
    const methods = protectableMethodsOf(instance);
    if (methods.size === 0) return instance;
    this.classes.add(instance.constructor as new (...args: never[]) => object);
    const wrappers = new Map<PropertyKey, { fn: unknown; wrapper: (...args: unknown[]) => unknown }>();
    return new Proxy(instance, {
      get: (target, key) => {
        // Read and call on the real instance (getters and `#private` fields work), as Spring's
        // proxies do: calls a service makes on `this` are not intercepted again.
        const value = Reflect.get(target, key, target);
        if (typeof value !== "function") return value;
        const known = wrappers.get(key);
        if (known?.fn === value) return known.wrapper;
        const method = typeof key === "string" ? methods.get(key) : undefined;
        const fn = value as (...args: unknown[]) => unknown;
        const wrapper = method ? this.wrap(method, fn, target) : fn.bind(target);
        wrappers.set(key, { fn: value, wrapper });
        return wrapper;
      },
    });
  }

  /**
   * Registers `token` in `container` as a protected singleton of `implementation` (resolved through
   * the container, so its own `@inject`s work).
   */
  register<T extends object>(
    container: DependencyContainer,
    token: InjectionToken<T>,
    implementation: new (...args: never[]) => T,
  ): void {
    this.classes.add(implementation);
    container.register(token, {
      useFactory: instanceCachingFactory((c) => this.protect(c.resolve(implementation as InjectionToken<T>))),
    });
  }

  /**
   * The classes registered for method security: each `register`ed implementation (from registration,
   * before any instance exists) and the class of each instance `protect` wrapped, in first-seen order,
   * once each. The method resource scanner reads their `@Protectable` methods.
   */
  protectedClasses(): readonly (abstract new (...args: never[]) => object)[] {
    return [...this.classes];
  }

  private wrap(
    method: ProtectableMethod,
    fn: (...args: unknown[]) => unknown,
    target: object,
  ): (...args: unknown[]) => unknown {
    return (...args: unknown[]) => {
      const authentication = this.context.current();
      const before = this.manager.before(method, authentication);
      if (!before.granted && !method.ownerField) {
        const refusal = this.refusal(method, authentication, before);
        // An async method refused before the call rejects, as it would have: it never throws synchronously.
        if (fn instanceof AsyncFunction) return Promise.reject(refusal);
        throw refusal;
      }
      const result = fn.apply(target, args);
      if (result instanceof Promise) {
        return result.then((value: unknown) => this.check(method, authentication, value, before));
      }
      return this.check(method, authentication, result, before);
    };
  }

  private check(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    value: unknown,
    before: MethodDecision,
  ): unknown {
    const decision = this.manager.after(method, authentication, value, before);
    if (!decision.granted) throw this.refusal(method, authentication, decision);
    return value;
  }

  // Audits the refusal and answers the error to throw.
  private refusal(
    method: ProtectableMethod,
    authentication: Authentication | undefined,
    decision: MethodDecision,
  ): PlatformError {
    this.manager.audit(method, authentication, decision);
    if (!authentication) return new PlatformError("AUTHENTICATION_REQUIRED", "Authentication required");
    return new PlatformError("ACCESS_DENIED", "Access denied");
  }
}
