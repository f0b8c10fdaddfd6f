/** One field of the model's JSON answer, with the rule the response inspector holds it to. */
export interface ResponseField {
  readonly name: string;
  readonly type: string;
  readonly rule: string;
}

/** Element B4: the format instructions and the response fields. */
export interface OutputFormat {
  readonly instructions: string;
  readonly fields: readonly ResponseField[];
}

/** The actions a decision may take, mildest first. */
export const DECISION_ACTIONS = ["ALLOW", "CHALLENGE", "ESCALATE", "BLOCK"] as const;

/** Renders the `<output_format>` block the system text carries. */
export function renderOutputFormat(format: OutputFormat): string {
  const fields = format.fields.map((f) => `- ${f.name} (${f.type}): ${f.rule}`);
  return ["<output_format>", format.instructions, ...fields, "</output_format>"].join("\n");
}
