import {
  capitalised,
  isPlural,
  phrase,
  pluralOf,
  singularPhrase,
  withArticle,
  wordsOf,
} from "./english-nouns.js";

/** Method verbs said otherwise in a name (`find` stays `Find`). */
const METHOD_VERBS: Readonly<Record<string, string>> = {
  get: "Get",
  fetch: "Get",
  load: "Get",
  read: "Get",
  retrieve: "Get",
  show: "View",
  list: "List",
  all: "List",
  add: "Add",
  new: "Create",
  insert: "Create",
  put: "Update",
  patch: "Update",
  modify: "Update",
  remove: "Remove",
  destroy: "Delete",
};

/** Method names that get something, listed when they get all (`getAll` → "List users"). */
const GETTERS = new Set(["get", "fetch", "load", "read", "retrieve", "find"]);
/** Method names that ask a question (`isOwner`, `hasAccess`, `canEdit`). */
const PREDICATES = new Set(["is", "has", "can"]);

/** `DocumentService.isOwner` → "Check owner of a document". */
function predicateName(rest: readonly string[], subject: readonly string[]): string {
  const what = rest.length > 0 ? phrase(rest) : "a condition";
  return `Check ${what} of ${withArticle(singularPhrase(subject))}`;
}

/** Class-name suffixes that are not the thing a service is about. */
const CLASS_SUFFIX = new Set([
  "service",
  "repository",
  "repo",
  "controller",
  "manager",
  "facade",
  "handler",
  "store",
  "dao",
  "api",
  "resource",
  "impl",
]);
const JOINERS = new Set(["by", "for", "with", "from", "to", "in", "of", "on", "at"]);

/** A name for a METHOD resource from its identifier (`OrderService.get(string)` → "Get an order"). */
export function methodResourceName(identifier: string): string {
  const match = /^(.*?)([^.(]+)\((.*)\)$/.exec(identifier);
  const classPart = (match?.[1] ?? "").replace(/\.$/, "");
  const className = classPart.slice(classPart.lastIndexOf(".") + 1);
  const subject = wordsOf(className);
  while (subject.length > 1 && CLASS_SUFFIX.has(subject.at(-1)!)) subject.pop();
  const [verbWord = "call", ...rest] = wordsOf(match?.[2] ?? identifier);
  if (PREDICATES.has(verbWord)) return predicateName(rest, subject);
  const many = verbWord === "list" || verbWord === "search" || rest[0] === "all";
  const verb = many && GETTERS.has(verbWord) ? "List" : (METHOD_VERBS[verbWord] ?? capitalised(verbWord));
  const join = rest.findIndex((w) => JOINERS.has(w));
  let object = join === -1 ? rest : rest.slice(0, join);
  const tail = join === -1 ? [] : rest.slice(join);
  if (object[0] === "all") object = object.slice(1);
  if (object.length === 0) object = subject;
  const last = object.at(-1);
  if (last === undefined) return [verb, tailPhrase(tail)].filter((t) => t !== "").join(" ");
  const thing = many
    ? phrase([...object.slice(0, -1), pluralOf(last)])
    : isPlural(last)
      ? phrase(object)
      : withArticle(singularPhrase(object));
  return [verb, thing, tailPhrase(tail)].filter((s) => s !== "").join(" ");
}

/** `by email` → `by email`; `for user` → `for a user`: a joiner then a noun, with an article when singular. */
function tailPhrase(tail: readonly string[]): string {
  if (tail.length === 0) return "";
  const [joiner, ...noun] = tail;
  if (noun.length === 0) return joiner!;
  const last = noun.at(-1)!;
  const needsArticle = joiner !== "by" && !isPlural(last) && joiner !== "with";
  return `${joiner} ${needsArticle ? withArticle(phrase(noun)) : phrase(noun)}`;
}
