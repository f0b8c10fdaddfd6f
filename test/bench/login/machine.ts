import { execFileSync } from "node:child_process";
import os from "node:os";

/** What the numbers were measured on. */
export interface MachineInfo {
  node: string;
  platform: string;
  cpuCount: number;
  availableParallelism: number;
  cpuModel: string;
  totalMemoryGiB: number;
  /** libuv's thread pool size (scrypt runs there): UV_THREADPOOL_SIZE, else libuv's default 4. */
  threadpool: string;
  loadAverage: string;
  git: string;
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  const models = [...new Set(cpus.map((cpu) => cpu.model.trim()))];
  const uv = process.env.UV_THREADPOOL_SIZE;
  return {
    node: process.version,
    platform: `${os.type()} ${os.release()} ${process.arch}`,
    cpuCount: cpus.length,
    availableParallelism: os.availableParallelism(),
    cpuModel: models.join(" / ") || "unknown",
    totalMemoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    threadpool: uv ? `${uv} threads, from UV_THREADPOOL_SIZE` : "4 threads, the libuv default",
    loadAverage: os
      .loadavg()
      .map((v) => v.toFixed(2))
      .join(" "),
    git: gitDescription(),
  };
}

/** `abc1234` or `abc1234 + uncommitted changes`; `unknown` outside a git checkout. */
function gitDescription(): string {
  try {
    const run = (args: string[]): string =>
      execFileSync("git", args, {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "ignore"],
        timeout: 5_000,
      }).trim();
    const head = run(["rev-parse", "--short", "HEAD"]);
    return run(["status", "--porcelain"]) === "" ? head : `${head} + uncommitted changes`;
  } catch {
    return "unknown";
  }
}
