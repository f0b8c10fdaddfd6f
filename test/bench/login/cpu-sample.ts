import { readFileSync } from "node:fs";
import { performance } from "node:perf_hooks";

/** CPU use during one run: this process (all its threads) and everything else on the machine. */
export interface CpuSample {
  /** Cores this process kept busy on average (main thread, worker threads, libuv pool). */
  ownCores: number;
  /**
   * Cores busy with other processes on average (including hypervisor steal); undefined where
   * /proc/stat is not readable. A run measured while this is high is not representative.
   */
  otherCores: number | undefined;
}

/** Starts measuring; the returned function ends the measurement. */
export function startCpuSample(): () => CpuSample {
  const wall0 = performance.now();
  const own0 = process.cpuUsage();
  const system0 = systemBusyMs();
  return () => {
    const wallMs = performance.now() - wall0;
    const own = process.cpuUsage(own0);
    const ownMs = (own.user + own.system) / 1000;
    const system1 = systemBusyMs();
    const otherMs = system0 === undefined || system1 === undefined ? undefined : system1 - system0 - ownMs;
    return {
      ownCores: wallMs > 0 ? ownMs / wallMs : 0,
      otherCores: otherMs === undefined || wallMs <= 0 ? undefined : Math.max(0, otherMs / wallMs),
    };
  };
}

/** Busy time of all CPUs so far (user, nice, system, irq, softirq, steal) in ms, from /proc/stat. */
function systemBusyMs(): number | undefined {
  try {
    const line = readFileSync("/proc/stat", "utf8").split("\n", 1)[0] ?? "";
    const fields = line.trim().split(/\s+/);
    if (fields[0] !== "cpu") return undefined;
    const [user, nice, system, , , irq, softirq, steal] = fields.slice(1).map(Number);
    const ticks = [user, nice, system, irq, softirq, steal].reduce<number>((sum, v) => sum + (v ?? 0), 0);
    return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
  } catch {
    return undefined;
  }
}
