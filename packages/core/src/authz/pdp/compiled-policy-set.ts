import { isPlatformError } from "../../kernel/platform-error.js";
import type { CompiledExpression, ExpressionEvaluator } from "../expression/compiled-expression.js";
import type { ExpressionCompiler } from "../expression/expression-compiler.js";
import type { PolicyExpressionConverter } from "../expression/policy-expression-converter.js";
import { comparePolicies, isExecutable, type Policy, type PolicyEffect } from "../policy/policy.js";
import type { CombiningAlgorithm } from "./combining-algorithm.js";
import { type IndexedTarget, PathPatternIndex } from "./path-pattern-index.js";
import type { EvaluationOutcome } from "./policy-evaluation.js";
import { covers } from "./pattern-coverage.js";

/** A loaded policy: its condition compiled once, ready for any number of decisions. */
export interface CompiledPolicy {
  readonly id: string;
  readonly name: string;
  readonly effect: PolicyEffect;
  readonly priority: number;
  /** Position in evaluation order (0 first). */
  readonly rank: number;
  /** The un-negated condition: ALLOW grants when it holds, DENY denies when it holds. */
  readonly condition: CompiledExpression | undefined;
  /** `condition.evaluate`, held directly: one pointer less to follow on every decision. */
  readonly test: ExpressionEvaluator | undefined;
  /** The policy as one expression (DENY as `!(condition)`), for explanations. */
  readonly expression: string;
  /** Why the condition could not be compiled; such a policy denies whenever its target matches. */
  readonly brokenReason?: string;
  /** The outcomes this policy gives, built once so a decision allocates nothing. */
  readonly granted: EvaluationOutcome;
  readonly denied: EvaluationOutcome;
}

/**
 * What a decision reads of a policy, copied onto each of its index targets: the target a lookup
 * returns already holds it, so a decision does not chase the policy object as well.
 */
export type PolicyHotFields = Pick<CompiledPolicy, "test" | "effect" | "granted" | "denied">;

function hotFieldsOf(p: CompiledPolicy): PolicyHotFields {
  return { test: p.test, effect: p.effect, granted: p.granted, denied: p.denied };
}

/** A policy left out of (or flagged in) a build, with why. */
export interface PolicyNote {
  readonly policyId: string;
  readonly name: string;
  readonly reason: string;
}

/** What a build loaded, skipped and found suspicious; `initialize()` and `reload()` return it. */
export interface PolicySetReport {
  /** URL policies the PRP returned. */
  readonly total: number;
  /** Executable policies loaded. */
  readonly loaded: number;
  readonly skipped: { readonly inactive: number; readonly pending: number; readonly rejected: number };
  /** Policies whose condition failed to compile: loaded as deny-on-match (fail closed). */
  readonly broken: readonly PolicyNote[];
  /**
   * Under FIRST_APPLICABLE: policies that can never decide because earlier ones match every request
   * they match (reason names them). Empty for the other algorithms, where every match is considered.
   */
  readonly shadowed: readonly PolicyNote[];
  readonly buildMs: number;
}

/** The tools a build needs. */
export interface PolicySetBuildOptions {
  compiler: ExpressionCompiler;
  converter: PolicyExpressionConverter;
  algorithm: CombiningAlgorithm;
  /** Milliseconds clock for buildMs (performance.now by default). */
  timer?: () => number;
}

/**
 * An immutable, indexed set of URL policies: built off the request path, then swapped in whole.
 * A request reads one set from start to end, so a reload never mixes two generations.
 */
export class CompiledPolicySet {
  private constructor(
    readonly index: PathPatternIndex<CompiledPolicy, PolicyHotFields>,
    readonly policies: readonly CompiledPolicy[],
    readonly algorithm: CombiningAlgorithm,
  ) {}

  /** The empty set (before initialize()). */
  static empty(algorithm: CombiningAlgorithm): CompiledPolicySet {
    return new CompiledPolicySet(new PathPatternIndex(), [], algorithm);
  }

  /** Compiles the executable URL policies of `all` into an indexed set and reports what it did. */
  static build(
    all: readonly Policy[],
    options: PolicySetBuildOptions,
  ): { set: CompiledPolicySet; report: PolicySetReport } {
    const timer = options.timer ?? (() => performance.now());
    const started = timer();
    const skipped = { inactive: 0, pending: 0, rejected: 0 };
    const executable: Policy[] = [];
    let total = 0;
    for (const policy of all) {
      if (!policy.targets.some((t) => t.targetType === "URL")) continue;
      total++;
      if (isExecutable(policy)) executable.push(policy);
      else if (!policy.isActive) skipped.inactive++;
      else if (policy.approvalStatus === "PENDING") skipped.pending++;
      else skipped.rejected++;
    }
    executable.sort(comparePolicies);
    const index = new PathPatternIndex<CompiledPolicy, PolicyHotFields>();
    const broken: PolicyNote[] = [];
    // Each policy's indexed targets (compiled once, by the index), for shadow detection.
    const targets: IndexedPolicyTarget[][] = [];
    const compiled = executable.map((policy, rank) => {
      const entry = compilePolicy(policy, rank, options);
      if (entry.brokenReason)
        broken.push({ policyId: policy.id, name: policy.name, reason: entry.brokenReason });
      const own: IndexedPolicyTarget[] = [];
      for (const target of [...policy.targets].sort((a, b) => a.targetOrder - b.targetOrder)) {
        if (target.targetType === "URL")
          own.push(index.add(target.targetIdentifier, target.httpMethod, rank, entry, hotFieldsOf(entry)));
      }
      targets.push(own);
      return entry;
    });
    const shadowed = options.algorithm === "FIRST_APPLICABLE" ? findShadowed(executable, targets, index) : [];
    const set = new CompiledPolicySet(index, compiled, options.algorithm);
    return {
      set,
      report: {
        total,
        loaded: compiled.length,
        skipped,
        broken,
        shadowed,
        buildMs: Math.round((timer() - started) * 100) / 100,
      },
    };
  }
}

function compilePolicy(policy: Policy, rank: number, o: PolicySetBuildOptions): CompiledPolicy {
  const base = { id: policy.id, name: policy.name, effect: policy.effect, priority: policy.priority, rank };
  let source = "";
  try {
    const converted = o.converter.convertCondition(policy, "URL");
    source = converted.condition;
    const condition = o.compiler.compile(source);
    const expression = fullExpression(converted.condition, policy.effect);
    return withOutcomes(
      { ...base, condition, test: condition.evaluate, expression },
      condition.usesZeroTrust,
    );
  } catch (error) {
    const reason = isPlatformError(error) ? error.message : "the condition could not be compiled";
    return withOutcomes(
      {
        ...base,
        condition: undefined,
        test: undefined,
        expression: source || "(invalid)",
        brokenReason: reason,
      },
      false,
    );
  }
}

function withOutcomes(p: Omit<CompiledPolicy, "granted" | "denied">, usedZeroTrust: boolean): CompiledPolicy {
  const decision = (granted: boolean): EvaluationOutcome =>
    Object.freeze({
      decision: Object.freeze({
        granted,
        reason: `${p.effect} '${p.name}': ${p.expression}`,
        policyId: p.id,
        policyName: p.name,
        effect: p.effect,
        ...(granted ? {} : { audited: true }),
      }),
      usedZeroTrust,
    });
  return { ...p, granted: decision(true), denied: decision(false) };
}

type IndexedPolicyTarget = IndexedTarget<CompiledPolicy, PolicyHotFields>;

/** Policies all of whose URL targets are covered by targets of earlier (lower-rank) policies. */
function findShadowed(
  policies: readonly Policy[],
  targets: readonly (readonly IndexedPolicyTarget[])[],
  index: PathPatternIndex<CompiledPolicy, PolicyHotFields>,
): PolicyNote[] {
  const notes: PolicyNote[] = [];
  policies.forEach((policy, rank) => {
    let names: string[] | undefined;
    let urlTargets = 0;
    for (const b of targets[rank]!) {
      urlTargets++;
      // The earliest earlier target that covers this one (candidates come unsorted); compared on
      // compiled segments, whose literals are canonical (`/a/` and `/a` are one target).
      let cover: CompiledPolicy | undefined;
      let coverRank = rank;
      for (const c of index.candidates(b.pattern.source)) {
        if (c.rank < coverRank && covers(c, b)) {
          cover = c.value;
          coverRank = c.rank;
        }
      }
      if (!cover) return; // this target can still decide
      names ??= [];
      if (!names.includes(cover.name)) names.push(cover.name);
    }
    if (names && urlTargets > 0) {
      notes.push({
        policyId: policy.id,
        name: policy.name,
        reason: `never decides: earlier policies match every request it matches (${names.join(", ")})`,
      });
    }
  });
  return notes;
}

/** The policy as one expression (the converter's rule, from an already converted condition). */
function fullExpression(condition: string, effect: PolicyEffect): string {
  if (effect === "ALLOW") return condition;
  if (condition === "permitAll") return "denyAll";
  if (condition === "denyAll") return "permitAll";
  return `!(${condition})`;
}
