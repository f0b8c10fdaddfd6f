import { constants } from "node:fs";
import { mkdir, open } from "node:fs/promises";
import { CliFailure } from "../command-line/cli-command.js";

const insecure = (dir: string, why: string) =>
  new CliFailure(`${dir} ${why}; the credentials file is not written there`, "CREDENTIALS_DIR_INSECURE");

/**
 * Makes `dir` a directory only its owner can enter, creating it (mode 0700) when missing. An
 * existing directory of ours with a looser mode is tightened to 0700 (it is ours, so fixing it is
 * safe and what the user wants); a symbolic link, something that is not a directory, or a
 * directory owned by another user is refused (CREDENTIALS_DIR_INSECURE): fixing those would act on
 * a place we do not control. The checks and the chmod go through one handle opened without
 * following links, so nothing can swap the directory between the check and the fix. Windows has no
 * such modes; there only the directory is created.
 */
export async function ensurePrivateDirectory(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EEXIST" || code === "ENOTDIR") throw insecure(dir, "is not a directory");
    throw error;
  }
  if (process.platform === "win32") return;
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP")
      throw insecure(dir, "is a symbolic link (point PLATFORM_CREDENTIALS at a real directory)");
    if (code === "ENOTDIR") throw insecure(dir, "is not a directory");
    throw error;
  }
  try {
    const info = await handle.stat();
    const uid = process.getuid?.();
    if (uid !== undefined && info.uid !== uid) throw insecure(dir, `belongs to user ${info.uid}, not to you`);
    if ((info.mode & 0o077) !== 0) await handle.chmod(0o700);
  } finally {
    await handle.close();
  }
}
