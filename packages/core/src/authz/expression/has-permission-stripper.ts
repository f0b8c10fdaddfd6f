import type { ExpressionNode } from "./expression-node.js";

/**
 * Removes every `hasPermission(…)` call from a tree, for URL policies (it only means something at
 * method level). A removed call drops out of its `and`/`or` as if it had never been written; a `!`
 * whose operand is removed goes too; an `and`/`or` left with one operand becomes that operand.
 * Returns undefined when nothing remains, and the very same node when nothing was removed.
 */
export function stripHasPermission(node: ExpressionNode): ExpressionNode | undefined {
  switch (node.kind) {
    case "call":
      return node.receiver === undefined && node.name === "hasPermission" ? undefined : node;
    case "boolean":
      return node;
    case "not": {
      const operand = stripHasPermission(node.operand);
      if (operand === undefined) return undefined;
      return operand === node.operand ? node : { ...node, operand };
    }
    case "and":
    case "or": {
      const operands: ExpressionNode[] = [];
      for (const operand of node.operands) {
        const kept = stripHasPermission(operand);
        if (kept !== undefined) operands.push(kept);
      }
      if (operands.length === 0) return undefined;
      if (operands.length === 1) return operands[0];
      const unchanged =
        operands.length === node.operands.length && operands.every((o, i) => o === node.operands[i]);
      return unchanged ? node : { ...node, operands };
    }
  }
}
