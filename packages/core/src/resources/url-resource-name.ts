import {
  capitalised,
  isPlural,
  phrase,
  possessive,
  singularOf,
  singularPhrase,
  withArticle,
  wordsOf,
} from "./english-nouns.js";

/** One part of a path: a literal segment's words, and whether an id (a variable, `*`, `**`) follows it. */
interface Part {
  readonly words: string[];
  id: boolean;
}

/** Whose a nested resource is: `a user's` / `a user`, or `the caller's` / `the caller` for `/me/...`. */
interface Owner {
  readonly of: string;
  readonly one: string;
}

const CALLER: Owner = { of: "the caller's", one: "the caller" };

/** Path segments that say nothing about what a resource is. */
const NOISE = /^(api|rest|v\d+(\.\d+)?)$/i;

/** Actions written as the last segment (`/orders/{id}/cancel`), with how a name says them. */
const ACTION_VERBS: Readonly<Record<string, string>> = Object.fromEntries(
  (
    "approve reject cancel activate deactivate enable disable publish unpublish archive unarchive restore " +
    "lock unlock verify confirm submit send resend reset refund ship assign unassign close reopen complete " +
    "start stop pause resume retry duplicate clone copy move rename export import download upload search " +
    "sync refresh rotate revoke invite accept decline subscribe unsubscribe follow unfollow share block " +
    "unblock ban unban suspend review validate preview print pay charge capture merge split transfer sign " +
    "run execute trigger test fulfil fulfill dispatch schedule reschedule"
  )
    .split(" ")
    .map((verb) => [verb, capitalised(verb)])
    .concat([
      ["checkout", "Check out"],
      ["login", "Sign in to"],
      ["logout", "Sign out of"],
    ]),
);

/** Nouns whose deletion is better said otherwise (`DELETE /orders/{id}` cancels an order). */
const DELETE_VERBS: Readonly<Record<string, string>> = {
  order: "Cancel",
  subscription: "Cancel",
  booking: "Cancel",
  reservation: "Cancel",
  appointment: "Cancel",
  invitation: "Cancel",
  session: "Revoke",
  token: "Revoke",
  key: "Revoke",
  grant: "Revoke",
  consent: "Revoke",
};

/** Nouns whose creation is better said otherwise (`POST /orders` places an order). */
const CREATE_VERBS: Readonly<Record<string, string>> = {
  order: "Place",
  message: "Send",
  email: "Send",
  invitation: "Send",
  notification: "Send",
  file: "Upload",
  document: "Upload",
  image: "Upload",
  photo: "Upload",
  attachment: "Upload",
  comment: "Post",
  payment: "Make",
  booking: "Make",
  reservation: "Make",
};

function partsOf(path: string): Part[] {
  const parts: Part[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || NOISE.test(segment)) continue;
    if (segment.startsWith("{") || segment === "*" || segment === "**") {
      const last = parts.at(-1);
      if (last) last.id = true;
      continue;
    }
    const words = wordsOf(segment);
    // `/me/settings`: the caller is an item as `/users/{id}` is.
    if (words.length > 0) parts.push({ words, id: words.length === 1 && words[0] === "me" });
  }
  return parts;
}

/** A name for a URL resource from its method and path pattern (see OfflineResourceNamer). */
export function urlResourceName(method: string, path: string): string {
  const parts = partsOf(path);
  const target = parts.at(-1);
  if (!target)
    return method === "GET" || method === "HEAD" ? "View the home page" : `${verbOf(method)} the home page`;
  const action = !target.id ? ACTION_VERBS[target.words[0]!] : undefined;
  if (action) return actionName(action, target.words.slice(1), parts.slice(0, -1));
  const owner = ownerOf(parts.slice(0, -1));
  if (target.id) return itemName(method, nounWithQualifiers(parts), owner);
  if (isPlural(target.words.at(-1)!)) return collectionName(method, nounWithQualifiers(parts), owner);
  return singletonName(method, phrase(nounWithQualifiers(parts)), owner);
}

/**
 * The target's words with the literal parts right before it that carry no id: `/admin/users` → admin
 * users, `/account/security` → account security.
 */
function nounWithQualifiers(parts: readonly Part[]): string[] {
  const words = [...parts.at(-1)!.words];
  for (let i = parts.length - 2; i >= 0 && !parts[i]!.id; i--) words.unshift(...parts[i]!.words);
  return words;
}

/** The nearest part before the target that names an item (`users/{id}` in `/users/{id}/orders`). */
function ownerOf(before: readonly Part[]): Owner | undefined {
  for (let i = before.length - 1; i >= 0; i--) {
    const part = before[i]!;
    if (!part.id) continue;
    if (part.words[0] === "me" && part.words.length === 1) return CALLER;
    const noun = singularPhrase(part.words);
    return { of: possessive(noun), one: withArticle(noun) };
  }
  return undefined;
}

function actionName(verb: string, object: readonly string[], before: readonly Part[]): string {
  const target = before.at(-1);
  if (object.length > 0) {
    const thing = phrase(object);
    if (!target) return `${verb} ${thing}`;
    if (target.id) return `${verb} ${ownerOf(before)!.of} ${thing}`;
    return `${verb} ${thing} of ${phrase(target.words)}`;
  }
  if (!target) return verb;
  if (target.id) return `${verb} ${withArticle(singularPhrase(nounWithQualifiers(before)))}`;
  const noun = phrase(nounWithQualifiers(before));
  return isPlural(target.words.at(-1)!) ? `${verb} ${noun}` : `${verb} the ${noun}`;
}

function itemName(method: string, words: readonly string[], owner: Owner | undefined): string {
  const noun = singularPhrase(words);
  const head = singularOf(words.at(-1)!);
  const one = owner ? `${owner.of} ${noun}` : withArticle(noun);
  switch (method) {
    case "GET":
      return `View ${one}`;
    case "DELETE": {
      const verb = DELETE_VERBS[head];
      if (verb) return `${verb} ${one}`;
      return owner ? `Remove ${withArticle(noun)} from ${owner.one}` : `Delete ${one}`;
    }
    case "PATCH":
      return `Edit ${one}`;
    default:
      return `${verbOf(method)} ${one}`;
  }
}

function collectionName(method: string, words: readonly string[], owner: Owner | undefined): string {
  const plural = phrase(words);
  const all = owner ? `${owner.of} ${plural}` : plural;
  switch (method) {
    case "GET":
      return `List ${all}`;
    case "POST": {
      const one = withArticle(singularPhrase(words));
      const verb = CREATE_VERBS[singularOf(words.at(-1)!)] ?? "Create";
      return owner ? `${verb} ${one} for ${owner.one}` : `${verb} ${one}`;
    }
    case "PUT":
      return `Replace ${all}`;
    case "PATCH":
      return `Update ${all}`;
    case "DELETE":
      return `Delete all ${all}`;
    default:
      return `${verbOf(method)} ${all}`;
  }
}

function singletonName(method: string, noun: string, owner: Owner | undefined): string {
  const what = owner ? `${owner.of} ${noun}` : noun;
  switch (method) {
    case "GET":
      return `View ${what}`;
    case "POST":
    case "PUT":
    case "PATCH":
      return `Change ${what}`;
    case "DELETE":
      return `Remove ${what}`;
    default:
      return `${verbOf(method)} ${what}`;
  }
}

/** The verb of a method when no rule above says better. */
function verbOf(method: string): string {
  switch (method) {
    case "GET":
      return "View";
    case "HEAD":
      return "Check";
    case "POST":
    case "PUT":
      return "Update";
    case "PATCH":
      return "Edit";
    case "DELETE":
      return "Delete";
    case "OPTIONS":
      return "Query the options of";
    default:
      return "Manage";
  }
}
