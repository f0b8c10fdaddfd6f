/**
 * Runs `fn` with `vars` set in `process.env`, then puts back what was there (also when `fn` throws).
 * For an in-process `platform start`, which reads its properties from the process's environment as
 * the binary does. Not for concurrent tests: the variables are the process's while `fn` runs.
 */
export async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
  Object.assign(process.env, vars);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
