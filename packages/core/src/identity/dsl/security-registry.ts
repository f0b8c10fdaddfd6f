import type { InjectionToken } from "tsyringe";
import { PlatformError } from "../../kernel/platform-error.js";
import { FormLoginOptions, RestLoginOptions } from "./form-login-options.js";
import type { MethodKind, MethodOptions } from "./method-options.js";
import { missingContributionPrototype } from "./missing-contribution.js";
import { OttLoginOptions, PasskeyLoginOptions } from "./ott-options.js";
import type { SecurityRegistryMethod } from "./security-registry-method.js";

/** How a chain keeps the user signed in: a server session, or stateless JWTs. */
export type StateKind = "session" | "oauth2";

/** Options of `.session()` (reserved; the session store and cookie are shared by all session chains). */
export type SessionStateOptions = Record<string, never>;

/** Options of `.oauth2()` (reserved; lifetimes and keys come from `platform.auth.jwt.*` properties). */
export type OAuth2StateOptions = Record<string, never>;

/** One registered method with its state management: the declarative form of one chain. */
export interface ChainDefinition {
  /** Chain id: `form`, `rest`, a second `form_2`; a named registration its own (`mfa_<name>`). */
  id: string;
  kind: MethodKind;
  state: StateKind;
  options: MethodOptions;
  /** Registration position, the tie-breaker for equal orders. */
  index: number;
}

/** What `.build()` returns: the chains to assemble, in registration order. */
export interface SecurityConfiguration {
  readonly chains: readonly ChainDefinition[];
}

/** DI token of the built DSL configuration (a host may register one instead of passing `security`). */
export const SecurityConfiguration: InjectionToken<SecurityConfiguration> = Symbol.for(
  "platform.SecurityConfiguration",
);

/** The step after a method: choose its state management. */
export class StateStep {
  constructor(
    private readonly registry: SecurityRegistry,
    private readonly pending: { options: MethodOptions; state?: StateKind },
  ) {}

  /** Server-side session (one shared HttpOnly cookie). */
  session(_customizer?: (options: SessionStateOptions) => void): SecurityRegistry {
    return this.choose("session");
  }

  /** Stateless JWT access tokens with rotating refresh tokens. */
  oauth2(_customizer?: (options: OAuth2StateOptions) => void): SecurityRegistry {
    return this.choose("oauth2");
  }

  private choose(state: StateKind): SecurityRegistry {
    if (this.pending.state)
      throw new PlatformError("CONFIGURATION_INVALID", "State management was already chosen for this method");
    this.pending.state = state;
    return this.registry;
  }
}

/**
 * The registry DSL: `.form() .rest() .ott() .passkey()`, and the methods the platform's plugins
 * contribute (`.mfa()` from the MFA plugin, a SecurityRegistryMethod), each followed by `.session()`
 * or `.oauth2()`, ended by `.build()`. Each method becomes its own security filter chain. A
 * contributed method is an own property of the registry, so two platforms' registries can differ.
 */
export class SecurityRegistry {
  private readonly pending: { options: MethodOptions; state?: StateKind }[] = [];
  private built = false;

  /**
   * `methods`: the contributed methods (refused, CONFIGURATION_INVALID, when two share a name or one
   * takes the name of identity's own methods).
   */
  constructor(methods: readonly SecurityRegistryMethod[] = []) {
    const added = new Map<string, SecurityRegistryMethod>();
    for (const method of methods) {
      const existing = added.get(method.name);
      if (existing === method) continue;
      if (existing !== undefined || method.name in this || !/^[a-z][A-Za-z0-9]*$/.test(method.name)) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `The registry DSL cannot take a contributed .${method.name}(): the name is taken or not a method name`,
        );
      }
      added.set(method.name, method);
      Object.defineProperty(this, method.name, {
        value: (customizer?: (options: MethodOptions) => void): StateStep =>
          this.use(method.create(), customizer),
        enumerable: false,
      });
    }
  }

  /** Form login (order 100). */
  form(customizer: (options: FormLoginOptions) => void = () => {}): StateStep {
    return this.add(new FormLoginOptions(), customizer);
  }
  /** REST (JSON) login (order 200). */
  rest(customizer: (options: RestLoginOptions) => void = () => {}): StateStep {
    return this.add(new RestLoginOptions(), customizer);
  }
  /** One-time-token login (order 300). */
  ott(customizer: (options: OttLoginOptions) => void = () => {}): StateStep {
    return this.add(new OttLoginOptions(), customizer);
  }
  /** Passkey login (order 400). */
  passkey(customizer: (options: PasskeyLoginOptions) => void = () => {}): StateStep {
    return this.add(new PasskeyLoginOptions(), customizer);
  }
  /**
   * Registers a method by its options object, configured by `customizer`: what a contributed DSL
   * method (a SecurityRegistryMethod) calls.
   */
  use<T extends MethodOptions>(options: T, customizer: (options: T) => void = () => {}): StateStep {
    return this.add(options, customizer);
  }

  /** Validates the registrations and returns the chain definitions. */
  build(): SecurityConfiguration {
    if (this.built)
      throw new PlatformError("CONFIGURATION_INVALID", "build() was already called on this registry");
    if (this.pending.length === 0) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        "No authentication method registered: call .form(), .rest(), ... before .build()",
      );
    }
    const counts = new Map<string, number>();
    const chains = this.pending.map(({ options, state }, index) => {
      if (!state) {
        throw new PlatformError(
          "CONFIGURATION_INVALID",
          `.${options.kind}() must be followed by .session() or .oauth2()`,
        );
      }
      options.validate();
      return { id: this.chainId(options, counts), kind: options.kind, state, options, index };
    });
    this.built = true;
    return { chains };
  }

  private chainId(options: MethodOptions, counts: Map<string, number>): string {
    const named = options.namedChainId();
    const base = named ?? options.kind;
    const n = (counts.get(base) ?? 0) + 1;
    counts.set(base, n);
    if (named && n > 1)
      throw new PlatformError("CONFIGURATION_INVALID", `Two .${options.kind}() chains are named ${named}`);
    return n === 1 ? base : `${base}_${n}`;
  }

  private add<T extends MethodOptions>(options: T, customizer: (options: T) => void): StateStep {
    if (this.built) throw new PlatformError("CONFIGURATION_INVALID", "The registry was already built");
    const last = this.pending.at(-1);
    if (last && !last.state) {
      throw new PlatformError(
        "CONFIGURATION_INVALID",
        `.${last.options.kind}() must be followed by .session() or .oauth2()`,
      );
    }
    customizer(options);
    const entry: { options: MethodOptions; state?: StateKind } = { options };
    this.pending.push(entry);
    return new StateStep(this, entry);
  }
}

/**
 * Starts a registry with identity's own methods and `methods` (what the platform's plugins
 * contribute; the identity plugin passes its platform's SecurityRegistryMethod family).
 */
export function securityRegistry(methods: readonly SecurityRegistryMethod[] = []): SecurityRegistry {
  return new SecurityRegistry(methods);
}

// A method no plugin of this platform contributed answers a clear CONFIGURATION_INVALID when called.
Object.setPrototypeOf(SecurityRegistry.prototype, missingContributionPrototype("the registry DSL"));
