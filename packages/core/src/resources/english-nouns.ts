// The small piece of English the offline resource namer needs: words of an identifier, singular
// forms, articles and possessives. Rules and exception lists, no dictionary.

const IRREGULAR: Readonly<Record<string, string>> = {
  people: "person",
  children: "child",
  men: "man",
  women: "woman",
  mice: "mouse",
  geese: "goose",
  teeth: "tooth",
  feet: "foot",
  indices: "index",
  matrices: "matrix",
  vertices: "vertex",
  criteria: "criterion",
  phenomena: "phenomenon",
  analyses: "analysis",
  theses: "thesis",
  leaves: "leaf",
  knives: "knife",
  wives: "wife",
  lives: "life",
  halves: "half",
  shelves: "shelf",
  quizzes: "quiz",
  statuses: "status",
  buses: "bus",
  aliases: "alias",
  movies: "movie",
  cookies: "cookie",
  caches: "cache",
  invoices: "invoice",
  databases: "database",
  responses: "response",
  licenses: "license",
  purchases: "purchase",
  releases: "release",
  courses: "course",
  cases: "case",
  bases: "base",
  phases: "phase",
  expenses: "expense",
};

/** Words that are not counted (no plural), or plural in form but one thing (`settings`). */
const UNCOUNTED = new Set([
  "data",
  "metadata",
  "news",
  "settings",
  "preferences",
  "health",
  "status",
  "info",
  "information",
  "analytics",
  "metrics",
  "stats",
  "security",
  "audit",
  "access",
  "billing",
  "inventory",
  "feedback",
  "software",
  "equipment",
  "series",
  "species",
  "me",
  "admin",
  "home",
  "search",
  "login",
  "logout",
  "config",
  "configuration",
]);

/** Words written in capitals in a name. */
const ACRONYMS = new Set([
  "api",
  "url",
  "uri",
  "id",
  "ip",
  "mfa",
  "sso",
  "jwt",
  "pdf",
  "csv",
  "sms",
  "otp",
  "ott",
  "ssh",
  "gpg",
  "dns",
  "sku",
  "vat",
  "faq",
  "oauth",
  "saml",
]);

/** The lower-case words of an identifier: `api-keys`, `api_keys`, `apiKeys`, `APIKeys` → `api keys`. */
export function wordsOf(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w !== "")
    .map((w) => w.toLowerCase());
}

/** True when the word is a countable noun in the plural (`orders`, `categories`, `people`). */
export function isPlural(word: string): boolean {
  return !UNCOUNTED.has(word) && singularOf(word) !== word;
}

/** The singular of one lower-case word (`categories` → `category`, `addresses` → `address`). */
export function singularOf(word: string): string {
  if (UNCOUNTED.has(word)) return word;
  const irregular = IRREGULAR[word];
  if (irregular) return irregular;
  if (word.length <= 3) return word;
  if (/[^aeiou]ies$/.test(word)) return `${word.slice(0, -3)}y`;
  if (/(ss|x|z|ch|sh|o)es$/.test(word)) return word.slice(0, -2);
  if (/(ss|us|is)$/.test(word)) return word;
  if (word.endsWith("s")) return word.slice(0, -1);
  return word;
}

/** The plural of one lower-case word (`order` → `orders`, `category` → `categories`); plurals stay. */
export function pluralOf(word: string): string {
  if (UNCOUNTED.has(word) || isPlural(word)) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** A noun phrase's words as written in a name: acronyms in capitals (`api key` → `API key`). */
export function phrase(words: readonly string[]): string {
  return words.map((w) => (ACRONYMS.has(w) ? w.toUpperCase() : w)).join(" ");
}

/** The phrase in the singular: its last word singularised (`api keys` → `API key`). */
export function singularPhrase(words: readonly string[]): string {
  if (words.length === 0) return "";
  return phrase([...words.slice(0, -1), singularOf(words.at(-1)!)]);
}

/** `a` or `an` before a phrase (`an order`, `a user`, `an API key`, `an hour`). */
export function articleFor(text: string): "a" | "an" {
  const lower = text.toLowerCase();
  const first = text.split(" ")[0] ?? "";
  if (first.length > 1 && first === first.toUpperCase() && /^[A-Z]/.test(first)) {
    return /^[AEFHILMNORSX]/.test(first) ? "an" : "a"; // acronyms by their letter's sound: an API, a URL
  }
  if (/^(hour|honou?r|heir)/.test(lower)) return "an";
  if (/^(u[nrst]i|use|usa|uti|eu|one\b|uni)/.test(lower)) return "a";
  return /^[aeiou]/.test(lower) ? "an" : "a";
}

/** The phrase with its article: `an order`. */
export function withArticle(text: string): string {
  return `${articleFor(text)} ${text}`;
}

/** The possessive of a phrase with its article: `a user's`. */
export function possessive(text: string): string {
  return `${withArticle(text)}'s`;
}

/** The text with its first letter in capitals. */
export function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
