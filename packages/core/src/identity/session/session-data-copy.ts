/** Deepest nesting copied by hand; deeper data (or a cycle) goes to structuredClone. */
const MAX_DEPTH = 32;

/** Signals data the hand copy does not cover exactly, so the caller falls back to structuredClone. */
const UNSUPPORTED = Symbol("unsupported");

/**
 * A deep copy of session data, equal to `structuredClone(data)`. Plain JSON-like data (plain objects,
 * dense arrays, primitives), which is what sessions hold, is copied by hand, several times faster
 * than structuredClone's serialisation; anything else (a Date, a Map, a class instance, a shared or
 * cyclic reference, a sparse array, a function) makes the whole value go through structuredClone,
 * so the result, and any DataCloneError, is exactly structuredClone's.
 */
export function copySessionData(data: Record<string, unknown>): Record<string, unknown> {
  const copy = copyValue(data, 0, new Set(), false);
  return copy === UNSUPPORTED ? structuredClone(data) : (copy as Record<string, unknown>);
}

/**
 * A deep copy of plain session data with every object and array in it frozen (`copySessionData`'s
 * copy, then `Object.freeze` all the way down), so it can be shared by every reader and changed by
 * none; undefined when the data is not plain (what `copySessionData` gives to structuredClone: a
 * Date or a Map stays changeable however frozen, so such data is never shared).
 */
export function frozenSessionData(
  data: Record<string, unknown>,
): Readonly<Record<string, unknown>> | undefined {
  const copy = copyValue(data, 0, new Set(), true);
  return copy === UNSUPPORTED ? undefined : (copy as Readonly<Record<string, unknown>>);
}

function copyValue(value: unknown, depth: number, seen: Set<object>, freeze: boolean): unknown {
  if (typeof value !== "object")
    return typeof value === "function" || typeof value === "symbol" ? UNSUPPORTED : value;
  if (value === null) return null;
  // structuredClone keeps one copy of an object reached twice; the hand copy would make two.
  if (depth > MAX_DEPTH || seen.has(value)) return UNSUPPORTED;
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  if (proto === Array.prototype) return copyArray(value as unknown[], depth, seen, freeze);
  if (proto !== Object.prototype) return UNSUPPORTED;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copyValue((value as Record<string, unknown>)[key], depth + 1, seen, freeze);
    if (item === UNSUPPORTED) return UNSUPPORTED;
    // An own `__proto__` key (JSON.parse makes them) stays a property, as structuredClone keeps it;
    // assigning it would set the copy's prototype instead.
    if (key === "__proto__") {
      Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
    } else out[key] = item;
  }
  return freeze ? Object.freeze(out) : out;
}

function copyArray(array: unknown[], depth: number, seen: Set<object>, freeze: boolean): unknown {
  // An array with holes or with properties besides its indices is structuredClone's to copy.
  if (Object.keys(array).length !== array.length) return UNSUPPORTED;
  const out = new Array<unknown>(array.length);
  for (let i = 0; i < array.length; i++) {
    if (!(i in array)) return UNSUPPORTED;
    const item = copyValue(array[i], depth + 1, seen, freeze);
    if (item === UNSUPPORTED) return UNSUPPORTED;
    out[i] = item;
  }
  return freeze ? Object.freeze(out) : out;
}
