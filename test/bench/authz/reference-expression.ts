import type { ZeroTrustAction } from "../../../packages/core/src/authz/zerotrust/zero-trust-action.js";
import { referenceIpInRange } from "./reference-ip.js";

/** What a reference expression may look at. */
export interface ReferenceSubject {
  /** The caller's authorities; undefined for an anonymous caller. */
  readonly authorities: readonly string[] | undefined;
  readonly remoteAddress: string;
  /** undefined = no analysis: the #ai functions read it as PENDING_ANALYSIS (hasActionOrDefault uses its default). */
  readonly zeroTrustAction: ZeroTrustAction | undefined;
}

/** A token of the expression language: words, `#ai.` calls, strings, parentheses, commas, operators. */
export type ReferenceToken =
  | { readonly kind: "word"; readonly text: string }
  | { readonly kind: "ai"; readonly text: string }
  | { readonly kind: "string"; readonly text: string }
  | { readonly kind: "(" | ")" | "," | "and" | "or" | "not" };

/** Splits an expression into tokens; throws on anything the language does not have. */
export function tokenizeReference(source: string): ReferenceToken[] {
  const out: ReferenceToken[] = [];
  let i = 0;
  while (i < source.length) {
    const c = source.charAt(i);
    if (/\s/.test(c)) {
      i++;
    } else if (c === "(" || c === ")" || c === ",") {
      out.push({ kind: c });
      i++;
    } else if (c === "!") {
      out.push({ kind: "not" });
      i++;
    } else if (source.startsWith("&&", i) || source.startsWith("||", i)) {
      out.push({ kind: c === "&" ? "and" : "or" });
      i += 2;
    } else if (c === "'" || c === '"') {
      // SpEL escapes a quote inside a string by doubling it.
      let text = "";
      let j = i + 1;
      for (;;) {
        if (j >= source.length) throw new Error(`reference expression: unterminated string in "${source}"`);
        if (source.charAt(j) === c) {
          if (source.charAt(j + 1) !== c) break;
          j++;
        }
        text += source.charAt(j);
        j++;
      }
      out.push({ kind: "string", text });
      i = j + 1;
    } else if (c === "#") {
      const m = /^#ai\.([A-Za-z]\w*)/.exec(source.slice(i));
      if (!m) throw new Error(`reference expression: unknown variable at ${i} in "${source}"`);
      out.push({ kind: "ai", text: m[1] ?? "" });
      i += m[0].length;
    } else if (/[A-Za-z_]/.test(c)) {
      const m = /^[A-Za-z_]\w*/.exec(source.slice(i));
      const text = m?.[0] ?? c;
      const lower = text.toLowerCase();
      if (lower === "and" || lower === "or" || lower === "not") out.push({ kind: lower });
      else out.push({ kind: "word", text });
      i += text.length;
    } else {
      throw new Error(`reference expression: unexpected '${c}' at ${i} in "${source}"`);
    }
  }
  return out;
}

/** Evaluates tokens directly (recursive descent, `!` over `and` over `or`); throws on an unknown function. */
export function evaluateReference(tokens: readonly ReferenceToken[], subject: ReferenceSubject): boolean {
  let pos = 0;
  const peek = (): ReferenceToken | undefined => tokens[pos];
  const expect = (kind: ReferenceToken["kind"]): ReferenceToken => {
    const t = tokens[pos];
    if (t?.kind !== kind) throw new Error(`reference expression: expected ${kind} at token ${pos}`);
    pos++;
    return t;
  };
  const orExpr = (): boolean => {
    let value = andExpr();
    while (peek()?.kind === "or") {
      pos++;
      const right = andExpr();
      value = value || right;
    }
    return value;
  };
  const andExpr = (): boolean => {
    let value = unary();
    while (peek()?.kind === "and") {
      pos++;
      const right = unary();
      value = value && right;
    }
    return value;
  };
  const unary = (): boolean => {
    if (peek()?.kind === "not") {
      pos++;
      return !unary();
    }
    return primary();
  };
  const primary = (): boolean => {
    const t = peek();
    if (t?.kind === "(") {
      pos++;
      const value = orExpr();
      expect(")");
      return value;
    }
    if (t?.kind !== "word" && t?.kind !== "ai")
      throw new Error(`reference expression: unexpected token ${pos}`);
    pos++;
    let args: string[] | undefined;
    if (peek()?.kind === "(") {
      pos++;
      args = [];
      while (peek()?.kind !== ")") {
        if (args.length > 0) expect(",");
        const arg = expect("string");
        args.push(arg.kind === "string" ? arg.text : "");
      }
      pos++;
    }
    return t.kind === "ai" ? callAi(t.text, args ?? [], subject) : callRoot(t.text, args, subject);
  };
  const value = orExpr();
  if (pos !== tokens.length) throw new Error(`reference expression: trailing tokens from ${pos}`);
  return value;
}

/** Tokenizes and evaluates in one go. */
export function evaluateReferenceSource(source: string, subject: ReferenceSubject): boolean {
  return evaluateReference(tokenizeReference(source), subject);
}

function callRoot(name: string, args: string[] | undefined, subject: ReferenceSubject): boolean {
  const has = (authority: string): boolean => subject.authorities?.includes(authority) ?? false;
  const role = (r: string): string => (r.startsWith("ROLE_") ? r : `ROLE_${r}`);
  const list = args ?? [];
  switch (name) {
    case "true":
    case "permitAll":
      return true;
    case "false":
    case "denyAll":
      return false;
  }
  if (args === undefined) throw new Error(`reference expression: bare '${name}' inside an expression`);
  switch (name) {
    case "hasRole":
      return arity(name, list, 1) && has(role(list[0] ?? ""));
    case "hasAnyRole":
      return list.some((r) => has(role(r)));
    case "hasAuthority":
      return arity(name, list, 1) && has(list[0] ?? "");
    case "hasAnyAuthority":
      return list.some(has);
    case "isAuthenticated":
    case "isFullyAuthenticated":
      return subject.authorities !== undefined;
    case "isAnonymous":
      return subject.authorities === undefined;
    case "isRememberMe":
      return false;
    case "hasIpAddress":
      return arity(name, list, 1) && referenceIpInRange(subject.remoteAddress, list[0] ?? "");
    case "isAllowed":
    case "isBlocked":
    case "needsChallenge":
    case "needsEscalation":
    case "isPendingAnalysis":
    case "hasAction":
    case "hasActionIn":
    case "hasActionOrDefault":
      return callAi(name, list, subject);
  }
  throw new Error(`reference expression: unknown function '${name}'`);
}

function callAi(name: string, args: readonly string[], subject: ReferenceSubject): boolean {
  const action: string = subject.zeroTrustAction ?? "PENDING_ANALYSIS";
  const norm = (a: string): string => a.trim().toUpperCase();
  switch (name) {
    case "isAllowed":
      return action === "ALLOW";
    case "isBlocked":
      return action === "BLOCK";
    case "needsChallenge":
      return action === "CHALLENGE";
    case "needsEscalation":
      return action === "ESCALATE";
    case "isPendingAnalysis":
      return action === "PENDING_ANALYSIS";
    case "hasAction":
      return arity(name, args, 1) && norm(args[0] ?? "") === action;
    case "hasActionIn":
      return args.some((a) => norm(a) === action);
    case "hasActionOrDefault": {
      const effective = subject.zeroTrustAction ?? norm(args[0] ?? "");
      return args.slice(1).some((a) => norm(a) === effective);
    }
  }
  throw new Error(`reference expression: unknown #ai function '${name}'`);
}

function arity(name: string, args: readonly string[], n: number): true {
  if (args.length !== n)
    throw new Error(`reference expression: ${name} takes ${n} argument(s), got ${args.length}`);
  return true;
}
