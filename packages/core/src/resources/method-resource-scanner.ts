import { type DeclaredProtectableMethod, protectableMethodsOfClass } from "../authz/method/protectable.js";
import type { ResourceScanner, ScannedResource } from "./scanned-resource.js";

/** Options of the MethodResourceScanner. */
export interface MethodResourceScannerOptions {
  /** The services registered for method security (`MethodSecurity.protectedClasses`), read at each scan. */
  readonly services: { protectedClasses(): readonly (abstract new (...args: never[]) => object)[] };
}

/**
 * The spec's MethodResourceScanner: every `@Protectable` method of the services registered for
 * method security (`MethodSecurity.register`, or an instance `MethodSecurity.protect` wrapped) is a
 * METHOD resource whose identifier is the one METHOD policies name (`OrderService.get(string)`, from
 * the class name or the `className` option and the `parameterTypes` option), so existing policies
 * keep matching. Two methods with one identifier (a `className` shared on purpose) are one resource.
 * Every field comes from the class and the decorator's options, never from a stack trace or a file
 * path of the running build, so a scan gives the same fields in every build:
 * docs/authorization.md#resource-scanning.
 */
export class MethodResourceScanner implements ResourceScanner {
  readonly name = "methods";

  constructor(private readonly o: MethodResourceScannerOptions) {}

  async scan(): Promise<readonly ScannedResource[]> {
    const found = new Map<string, ScannedResource>();
    for (const type of this.o.services.protectedClasses()) {
      for (const method of protectableMethodsOfClass(type).values()) {
        if (!found.has(method.identifier)) found.set(method.identifier, resourceOf(method));
      }
    }
    return [...found.values()];
  }
}

function resourceOf(method: DeclaredProtectableMethod): ScannedResource {
  const { returnType, source, parameterTypes = [] } = method.options;
  return {
    resourceIdentifier: method.identifier,
    resourceType: "METHOD",
    friendlyName: method.methodName,
    description: `Method: ${method.identifier}`,
    serviceOwner: simpleName(method.className),
    parameterTypes: JSON.stringify(parameterTypes),
    ...(returnType ? { returnType } : {}),
    ...(source ? { sourceCodeLocation: source } : {}),
    // What a METHOD policy's condition reads beyond the caller: the returned entity (#ownership).
    availableContextVariables: JSON.stringify(["returnObject"]),
  };
}

/** `shop.OrderService` → `OrderService`: the spec's "simple declaring class name". */
function simpleName(className: string): string {
  return className.slice(className.lastIndexOf(".") + 1) || className;
}
