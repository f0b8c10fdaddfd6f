/** Halfwidth and fullwidth forms (decomposition types <narrow> and <wide>): RFC 8265's width mapping. */
const WIDTH_FORMS = /[\u3000\uFF01-\uFFEE]/gu;
/** RFC 8264 section 7: rules that do not settle after this many further applications refuse the string. */
const MAX_REAPPLICATIONS = 3;

/** A string after the UsernameCaseMapped rules, and whether applying them again changed nothing. */
export interface CaseMapped {
  readonly form: string;
  /** False: the rules did not settle within three more applications (RFC 8264 refuses such a string). */
  readonly settled: boolean;
}

/**
 * The PRECIS UsernameCaseMapped form of `s` (RFC 8265 section 3.3.3): width mapping, Unicode default
 * lower case (`toLowerCase`, not locale-dependent), NFC; applied again until it settles. Validation
 * is the caller's.
 */
export function usernameCaseMapped(s: string): CaseMapped {
  let form = applyRules(s);
  for (let i = 0; i < MAX_REAPPLICATIONS; i++) {
    const again = applyRules(form);
    if (again === form) return { form, settled: true };
    form = again;
  }
  return { form, settled: false };
}

function applyRules(s: string): string {
  return s
    .replace(WIDTH_FORMS, (ch) => ch.normalize("NFKC"))
    .toLowerCase()
    .normalize("NFC");
}
