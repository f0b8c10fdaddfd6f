/**
 * Other spellings of a canonical path (`/api/orders/7`): trailing slashes and dots, case, empty and
 * dot segments, encoded separators and dots, matrix parameters, needless escapes, backslashes. Each
 * must be judged and routed as one string: refused by the firewall, or the same path as the
 * original, or a different path altogether (a 404), never a path the guard misses but a route serves.
 */
export function pathVariants(path: string): Array<[label: string, path: string]> {
  const cut = path.lastIndexOf("/");
  const head = path.slice(0, cut);
  // Where an encoded separator goes in place of the last '/' (after the first one for `/admin`).
  const sep = cut === 0 ? "/" : head;
  const last = path.slice(cut + 1);
  const first = path.slice(1).split("/")[0]!;
  const afterFirst = path.slice(1 + first.length);
  const escaped = (c: string, lower = false): string => {
    const hex = c.charCodeAt(0).toString(16).padStart(2, "0");
    return `%${lower ? hex : hex.toUpperCase()}`;
  };
  return [
    ["as is", path],
    ["trailing slash", `${path}/`],
    ["two trailing slashes", `${path}//`],
    ["trailing dot", `${path}.`],
    ["trailing /.", `${path}/.`],
    ["upper case", path.toUpperCase()],
    ["first segment upper case", `/${first.toUpperCase()}${afterFirst}`],
    ["leading //", `/${path}`],
    ["inner //", `${head}//${last}`],
    ["/./", `${head}/./${last}`],
    ["/../", `/${first}/x/..${afterFirst}`],
    ["%2f for /", `${sep}%2f${last}`],
    ["trailing %2F", `${path}%2F`],
    ["%2e segment", `${head}/%2e/${last}`],
    ["%2e%2e segment", `/${first}/x/%2e%2e${afterFirst}`],
    ["trailing %2e", `${path}%2e`],
    ["trailing ;", `${path};`],
    [";param", `/${first};x=1${afterFirst}`],
    ["needless escape, first character", `/${escaped(first[0]!)}${path.slice(2)}`],
    ["needless escape, lower-case hex, trailing slash", `/${escaped(first[0]!, true)}${path.slice(2)}/`],
    ["needless escape, last character", `${path.slice(0, -1)}${escaped(path.at(-1)!)}`],
    ["backslash", `${sep}\\${last}`],
    ["%5c", `${sep}%5c${last}`],
    ["trailing %25", `${path}%25`],
    ["trailing %00", `${path}%00`],
  ];
}
