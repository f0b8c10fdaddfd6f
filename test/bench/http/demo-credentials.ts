import { DEMO_CREDENTIALS } from "../login/http-load.js";

/** What the demo scenarios send: a signed-in session's cookies and a bearer access token. */
export interface DemoCredentials {
  /** `PLATFORM_SESSION=...` (and any other cookie the sign-in set), as a Cookie header. */
  sessionCookie: string;
  /** `Bearer <access token>` of the REST login. */
  authorization: string;
}

/**
 * Signs the demo user in twice: by the login form (GET /login for the CSRF token, POST the form; a
 * session cookie) and by the REST login (an access token), as a browser and an API client would.
 */
export async function signInDemoUser(baseUrl: string): Promise<DemoCredentials> {
  const jar = new Map<string, string>();
  const keep = (res: Response): void => {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      jar.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = (): string => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const page = await fetch(new URL("/login", baseUrl));
  keep(page);
  const csrf = /<meta name="_csrf" content="([^"]+)">/.exec(await page.text())?.[1];
  if (!csrf) throw new Error("no CSRF token on /login");
  const form = await fetch(new URL("/login", baseUrl), {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ ...DEMO_CREDENTIALS, _csrf: csrf }).toString(),
  });
  keep(form);
  if (form.status !== 302) throw new Error(`form login answered ${form.status}`);

  const rest = await fetch(new URL("/api/login", baseUrl), {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(DEMO_CREDENTIALS),
  });
  const json = (await rest.json()) as { accessToken?: unknown };
  if (rest.status !== 200 || typeof json.accessToken !== "string") {
    throw new Error(`REST login answered ${rest.status}`);
  }
  return { sessionCookie: cookie(), authorization: `Bearer ${json.accessToken}` };
}
