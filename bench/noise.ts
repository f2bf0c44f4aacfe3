import fs from 'node:fs';
import os from 'node:os';

/**
 * How busy the machine was with other work while we measured: busy CPU time of the whole machine (Linux's
 * /proc/stat) minus this process's own (all threads). A benchmark on a shared machine is only as good as this
 * number is small, so it is printed beside the results.
 */
export interface CpuWatch {
  /** Cores' worth of CPU that other processes used on average since the start; null off Linux. */
  stop: () => { otherCores: number | null; cores: number };
}

/** Starts watching; call `stop` once the measurements are done. */
export function watchCpu(): CpuWatch {
  const machineBefore = machineBusyMs();
  const ownBefore = process.cpuUsage();
  const started = performance.now();
  return {
    stop: () => {
      const machineAfter = machineBusyMs();
      const own = process.cpuUsage(ownBefore);
      const wallMs = performance.now() - started;
      const cores = os.cpus().length;
      if (machineBefore === null || machineAfter === null || wallMs <= 0) return { otherCores: null, cores };
      const otherMs = machineAfter - machineBefore - (own.user + own.system) / 1000;
      return { otherCores: Math.max(0, otherMs / wallMs), cores };
    },
  };
}

function machineBusyMs(): number | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
    const busy = fields.reduce((sum, v, i) => (i === 3 || i === 4 || i > 7 ? sum : sum + v), 0);
    const ticksPerSecond = 100;
    return (busy / ticksPerSecond) * 1000;
  } catch {
    return null;
  }
}
