import { describe, expect, it } from "vitest";
import { processCpuSeconds } from "./process-cpu.mjs";

describe("a process's CPU time from /proc", () => {
  it("grows by the CPU time the process spends, as Node itself counts it", () => {
    const before = processCpuSeconds(process.pid);
    const nodeBefore = process.cpuUsage();
    let sum = 0;
    // 300 ms of CPU, not of wall time: on a busy machine this process gets less than its share.
    const spent = () => {
      const { user, system } = process.cpuUsage(nodeBefore);
      return (user + system) / 1e6;
    };
    while (spent() < 0.3) for (let i = 0; i < 10_000; i++) sum += Math.sqrt(sum + 1);
    const used = processCpuSeconds(process.pid).own - before.own;
    const nodeUsed = process.cpuUsage(nodeBefore);
    const nodeSeconds = (nodeUsed.user + nodeUsed.system) / 1e6;
    expect(sum).toBeGreaterThan(0);
    expect(used).toBeGreaterThan(0.2);
    // /proc counts in hundredths of a second; other threads of this process may add a little.
    expect(Math.abs(used - nodeSeconds)).toBeLessThan(0.1);
    expect(before.exitedChildren).toBeGreaterThanOrEqual(0);
  });
});
