import { performance } from "node:perf_hooks";
import { type Enforcer, newEnforcer, newModelFromString } from "casbin";
import type { BenchRequest } from "./bench-types.js";
import {
  type CasbinVariant,
  type CasbinWorkload,
  casbinRequest,
  toCasbinWorkload,
} from "./casbin-workload.js";
import type { Workload } from "./workload.js";

/** node-casbin loaded with the workload: the speed peer. */
export interface CasbinPeer {
  readonly variant: CasbinVariant;
  /** `p` rows loaded (one per executable policy × URL target × subject, duplicates dropped). */
  readonly policyRows: number;
  readonly groupingRows: number;
  readonly buildMs: number;
  /** `enforceSync(sub, obj, act)`. */
  decide(request: BenchRequest): boolean;
}

/** Builds an enforcer from the model text and adds the rows with addPolicies / addGroupingPolicies. */
export async function createCasbinPeer(workload: Workload, variant: CasbinVariant): Promise<CasbinPeer> {
  const t0 = performance.now();
  const form: CasbinWorkload = toCasbinWorkload(workload, variant);
  const enforcer: Enforcer = await newEnforcer(newModelFromString(form.model));
  // No adapter: the rows go straight into the model (and are rejected as a batch if any is a duplicate).
  if (!(await enforcer.addGroupingPolicies(form.groupingRows.map((r) => [...r])))) {
    throw new Error("casbin rejected the grouping rows");
  }
  if (!(await enforcer.addPolicies(form.policyRows.map((r) => [...r])))) {
    throw new Error("casbin rejected the policy rows");
  }
  const buildMs = performance.now() - t0;
  return {
    variant,
    policyRows: form.policyRows.length,
    groupingRows: form.groupingRows.length,
    buildMs,
    decide: (request) => enforcer.enforceSync(...casbinRequest(request)),
  };
}
