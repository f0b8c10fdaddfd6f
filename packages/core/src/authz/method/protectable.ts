/** Options of `@Protectable`. */
export interface ProtectableOptions {
  /**
   * The field of the returned entity that names its owner (a username or user id). When set, the
   * owner may always access the entity (and ROLE_ADMIN may), decided on the returned value.
   */
  ownerField?: string;
  /**
   * The parameter type names of the method identifier, e.g. `["string", "number"]` →
   * `OrderService.getOrder(string,number)`. TypeScript erases types and no decorator metadata is
   * emitted here, so they are declared; default: none (`OrderService.list()`).
   */
  parameterTypes?: readonly string[];
  /** The class part of the identifier (default: the class name); a qualified name such as `shop.OrderService` fits too. */
  className?: string;
  /**
   * The return type's name, for the method's managed resource (`returnType`), e.g. `Order` or
   * `Promise<Order>`. Declared for the reason `parameterTypes` is; default: none (not recorded).
   */
  returnType?: string;
  /**
   * Where the method is declared, for its managed resource (`sourceCodeLocation`): a path relative to
   * the repository root, e.g. `src/orders/order-service.ts`. Declared, so it is the same in every
   * build (a compiled or bundled file has other paths); default: none (not recorded).
   */
  source?: string;
}

/** A protectable method as the interceptor and the registry see it. */
export interface ProtectableMethod {
  /** `<Class>.<method>(<param types>)`: the targetIdentifier of METHOD policies. */
  readonly identifier: string;
  readonly methodName: string;
  readonly ownerField?: string;
}

const REGISTRY = new WeakMap<object, Map<string, ProtectableOptions>>();

/**
 * Marks a service method for method-level authorization: METHOD policies whose targetIdentifier is
 * the method identifier decide before the call, ownership on the returned entity. It takes effect
 * on instances wrapped by `MethodSecurity.protect` (or registered with `MethodSecurity.register`).
 */
export function Protectable(options: ProtectableOptions = {}): MethodDecorator {
  return (target, key) => {
    if (typeof key !== "string") throw new TypeError("@Protectable needs a string method name");
    let methods = REGISTRY.get(target);
    if (!methods) {
      methods = new Map();
      REGISTRY.set(target, methods);
    }
    methods.set(key, { ...options });
  };
}

/** The identifier of a method: `<Class>.<method>(<type>,<type>)`. */
export function methodIdentifier(
  className: string,
  methodName: string,
  parameterTypes: readonly string[] = [],
): string {
  return `${className}.${methodName}(${parameterTypes.join(",")})`;
}

/** A `@Protectable` method with the options it was declared with, as the method resource scanner reads it. */
export interface DeclaredProtectableMethod extends ProtectableMethod {
  /** The class part of the identifier (the `className` option, or the declaring class's name). */
  readonly className: string;
  readonly options: Readonly<ProtectableOptions>;
}

/** Every `@Protectable` method of an instance's class chain, by method name. */
export function protectableMethodsOf(instance: object): Map<string, ProtectableMethod> {
  const found = new Map<string, ProtectableMethod>();
  for (const [name, m] of declaredMethodsFrom(Object.getPrototypeOf(instance))) {
    found.set(name, {
      identifier: m.identifier,
      methodName: m.methodName,
      ...(m.ownerField ? { ownerField: m.ownerField } : {}),
    });
  }
  return found;
}

/**
 * Every `@Protectable` method of a class and its superclasses, by method name, in declaration order
 * (a subclass's declaration wins), with the options it was declared with.
 */
export function protectableMethodsOfClass(
  type: abstract new (...args: never[]) => object,
): Map<string, DeclaredProtectableMethod> {
  return declaredMethodsFrom(type.prototype as object);
}

function declaredMethodsFrom(start: object | null): Map<string, DeclaredProtectableMethod> {
  const found = new Map<string, DeclaredProtectableMethod>();
  for (let proto = start; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const methods = REGISTRY.get(proto);
    if (!methods) continue;
    for (const [name, o] of methods) {
      if (found.has(name)) continue; // a subclass's declaration wins
      const className = o.className ?? (proto.constructor as { name?: string }).name ?? "Anonymous";
      found.set(name, {
        identifier: methodIdentifier(className, name, o.parameterTypes),
        methodName: name,
        className,
        options: o,
        ...(o.ownerField ? { ownerField: o.ownerField } : {}),
      });
    }
  }
  return found;
}
