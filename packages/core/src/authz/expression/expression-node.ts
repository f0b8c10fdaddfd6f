/**
 * The syntax tree of a policy expression. Every node carries its source span (`position` inclusive,
 * `end` exclusive, UTF-16 offsets into the source) so errors and tools can point at the text.
 * Parentheses leave no node: the tree's shape already says how operands group.
 */
export type ExpressionNode = OrNode | AndNode | NotNode | BooleanNode | CallNode;

/** A source span: `position` is the first character, `end` is one past the last. */
export interface SourceSpan {
  readonly position: number;
  readonly end: number;
}

/** `a or b or c` (also `||`): true when any operand is; operands are evaluated left to right. */
export interface OrNode extends SourceSpan {
  readonly kind: "or";
  readonly operands: readonly ExpressionNode[];
}

/** `a and b and c` (also `&&`): true when every operand is; operands are evaluated left to right. */
export interface AndNode extends SourceSpan {
  readonly kind: "and";
  readonly operands: readonly ExpressionNode[];
}

/** `!a` or `not a`. */
export interface NotNode extends SourceSpan {
  readonly kind: "not";
  readonly operand: ExpressionNode;
}

/** `true` or `false` used as a whole operand. */
export interface BooleanNode extends SourceSpan {
  readonly kind: "boolean";
  readonly value: boolean;
}

/** Which `#variable.` a call was made on; undefined for the plain functions of the expression root. */
export type CallReceiver = "ai" | "ownership";

/** A call of a known function, `name(args)`, `#ai.name(args)`, or bare (`permitAll`). */
export interface CallNode extends SourceSpan {
  readonly kind: "call";
  readonly receiver: CallReceiver | undefined;
  readonly name: string;
  readonly args: readonly ArgumentNode[];
  /** False for the bare form (`permitAll` rather than `permitAll()`). */
  readonly parenthesized: boolean;
}

/** A function argument: literals, plus the two names `#ownership.isOwner` takes. */
export type ArgumentNode = StringArgument | NumberArgument | BooleanArgument | IdentifierArgument;

/** A single-quoted string literal; `value` has the `''` escapes resolved. */
export interface StringArgument extends SourceSpan {
  readonly kind: "string";
  readonly value: string;
}

/** A decimal number literal (digits, optionally a fraction). */
export interface NumberArgument extends SourceSpan {
  readonly kind: "number";
  readonly value: number;
}

/** `true` or `false` as an argument (e.g. the default of `hasActionOrDefault`). */
export interface BooleanArgument extends SourceSpan {
  readonly kind: "boolean";
  readonly value: boolean;
}

/** The only identifiers an argument may be, and only as arguments of `#ownership.isOwner`. */
export type ArgumentIdentifier = "authentication" | "returnObject";

/** `authentication` or `returnObject`. */
export interface IdentifierArgument extends SourceSpan {
  readonly kind: "identifier";
  readonly name: ArgumentIdentifier;
}
