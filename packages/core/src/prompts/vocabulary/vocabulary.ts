import { ipRangeContains, parseIpRange } from "../../web/ip-range.js";

/**
 * The vocabulary the prompts speak: the version and the classifier tables that map a request's
 * method, target and network address onto its terms. The tables are data, not code, so element B10
 * hashes exactly what classifies (a function's source text would differ between compilers).
 */
export const VOCABULARY = {
  version: "vocab-3",
  /** HTTP method → action term; the first target rule that matches overrides it. */
  actions: {
    methods: {
      GET: "READ",
      HEAD: "READ",
      OPTIONS: "READ",
      POST: "WRITE",
      PUT: "WRITE",
      PATCH: "WRITE",
      DELETE: "DELETE",
    },
    targetOverrides: [{ prefix: "/admin/", term: "ADMIN" }],
  },
  /** Target path prefix → resource class, first match wins; no match leaves the class unknown. */
  resourceClasses: [
    { prefix: "/admin/", term: "RESTRICTED" },
    { prefix: "/api/payments/", term: "CONFIDENTIAL" },
    { prefix: "/api/users/", term: "CONFIDENTIAL" },
    { prefix: "/api/", term: "INTERNAL" },
    { prefix: "/public/", term: "PUBLIC" },
  ],
  /** Address range → network term, first match wins; an address in none is EXTERNAL. */
  networks: [
    { range: "127.0.0.0/8", term: "LOOPBACK" },
    { range: "::1/128", term: "LOOPBACK" },
    { range: "10.0.0.0/8", term: "CORPORATE" },
    { range: "172.16.0.0/12", term: "CORPORATE" },
    { range: "192.168.0.0/16", term: "CORPORATE" },
    { range: "fc00::/7", term: "CORPORATE" },
  ],
  networkDefault: "EXTERNAL",
} as const;

const NETWORK_RANGES = VOCABULARY.networks.map((n) => {
  const range = parseIpRange(n.range);
  if (typeof range === "string") throw new Error(`vocabulary: bad range ${n.range}: ${range}`);
  return { range, term: n.term };
});

/** The action term of a method on a target, or undefined when the method is unknown. */
export function classifyAction(method: string | undefined, target: string | undefined): string | undefined {
  if (target !== undefined) {
    const override = VOCABULARY.actions.targetOverrides.find((o) => target.startsWith(o.prefix));
    if (override) return override.term;
  }
  if (method === undefined) return undefined;
  return (VOCABULARY.actions.methods as Record<string, string>)[method.toUpperCase()];
}

/** The resource class of a target path, or undefined when no rule covers it. */
export function classifyResource(target: string | undefined): string | undefined {
  if (target === undefined) return undefined;
  return VOCABULARY.resourceClasses.find((c) => target.startsWith(c.prefix))?.term;
}

/** The network term of an address, or undefined when it is no IP address. */
export function classifyNetwork(address: string | undefined): string | undefined {
  if (address === undefined || typeof parseIpRange(address) === "string") return undefined;
  return NETWORK_RANGES.find((n) => ipRangeContains(n.range, address))?.term ?? VOCABULARY.networkDefault;
}
