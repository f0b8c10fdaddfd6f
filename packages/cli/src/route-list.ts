import type { Route } from "@keyward/core/web";

const HEADER = `# Routes

Every endpoint the demo platform serves, as its route table lists them (\`platform routes
--markdown\`, generated; \`test/docs/route-table.test.ts\` holds this file equal to the table and
checks the other docs' URL tables against it). How the table works: [architecture.md](architecture.md#routes).

- **chain**: the security filter chain that owns the route; its matcher still decides whether a
  request reaches that chain, so a chain route is served only where that chain is selected (\`/api/me\`
  is declared on every chain). No chain: an application route, served after whichever chain matched.
- **stage**: \`entry\` routes run before authorization (sign-in, logout, tokens, \`/api/me\`, MFA API
  and pages, passkey endpoints); \`mounted\` routes after it (\`addFilterAfter(userAdminApi(),
  "authorization")\`); application routes after the whole chain.
- **access**: \`public\`, \`authenticated\`, \`admin\` (ROLE_ADMIN, checked by the route itself),
  \`mfa-flow\` (a caller inside an MFA flow), \`reset-link\` (holder of a password-reset link),
  \`chain-rules\` (the chain's rules and policies decide).
- \`ANY\` rows answer every other method of a resource with 405 and its \`Allow\`. Paths are
  written in the one path language ([architecture.md](architecture.md#path-patterns)): \`{name}\`
  one decoded segment (\`{name:regex}\` one an RE2 regex matches), \`*\` one segment as sent, \`**\`
  the rest of the path. A host may still write \`:name\`; it is stored and listed as \`{name}\`.
`;

function cell(text: string): string {
  return text.replace(/\|/g, "\\|");
}

/** The route table as the Markdown of docs/routes.md: a short legend, then one row per route. */
export function routeListMarkdown(routes: readonly Route[]): string {
  const rows = routes.map(
    (r) =>
      `| ${r.method} | \`${r.path}\` | \`${r.name}\` | ${r.feature} | ${r.access} | ${r.chain ?? ""} | ${
        r.chain === undefined ? "" : (r.stage ?? "entry")
      } | ${cell(r.description)} |`,
  );
  return `${HEADER}
${routes.length} routes.

| method | path | name | feature | access | chain | stage | description |
|---|---|---|---|---|---|---|---|
${rows.join("\n")}
`;
}

/** The route table as plain text: one aligned line per route. */
export function routeListText(routes: readonly Route[]): string {
  const width = Math.max(...routes.map((r) => r.path.length), 4);
  return routes
    .map(
      (r) =>
        `${r.method.padEnd(7)} ${r.path.padEnd(width)}  ${r.name}  [${r.feature}, ${r.access}${
          r.chain === undefined ? "" : `, chain ${r.chain} ${r.stage ?? "entry"}`
        }]`,
    )
    .join("\n");
}
