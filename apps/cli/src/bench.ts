/**
 * `pnpm bench`: simulator speed and memory, printed as figures (`<name>: <value> <unit>`), never
 * asserted (machines here are noisy). Rates use this process's CPU time (user + system), so a
 * busy machine slows them less than wall time would. Targets (DESIGN §8): >= 10 M null syscalls/s, >= 2 M signal
 * deliveries/s, ngpt_yield at full size (10 threads x 1,000,000 yields) <= 10 s on both sides
 * (LinuxThreads and NGPT), flat memory.
 */
import { EXAMPLES, runWorkload, type RunResult } from "@siglab/core";
import { createNodeEnvironment } from "./run/node-env.js";

const env = await createNodeEnvironment();
const only = process.argv.slice(2);

function run(id: string, params: Record<string, number>, cpu = { id: "p4-northwood", mhz: 2200 }, variants: { id: string }[] = []): { r: RunResult; s: number } {
  const e = EXAMPLES.find((x) => x.id === id)!;
  // CPU time of this process, not wall time: other processes on a shared machine do not count
  const c0 = process.cpuUsage();
  const r = runWorkload({ workload: { id, file: e.file, source: e.source }, cpu, variants, params, seed: 1, budget: { maxSteps: 1e9, maxCycles: 1e15 } }, env);
  const c = process.cpuUsage(c0);
  const s = (c.user + c.system) / 1e6;
  if (r.error) throw new Error(`${id}: ${r.error.message}`);
  return { r, s };
}

function line(name: string, value: number, unit: string): void {
  console.log(`${name}: ${Number.isInteger(value) ? value : value.toFixed(3)} ${unit}`);
}

const want = (k: string) => !only.length || only.includes(k);
let peak = process.memoryUsage().rss;
const sample = () => (peak = Math.max(peak, process.memoryUsage().rss));

if (want("syscalls")) {
  run("lat_syscall", { iterations: 200_000 }); // warm up the JIT
  const { r, s } = run("lat_syscall", { iterations: 3_000_000 });
  sample();
  line("null syscalls per host second", Math.round(r.counters["syscalls.getpid"]! / s), "syscalls/s");
}
if (want("signals")) {
  run("lat_sig_catch", { iterations: 50_000 });
  const { r, s } = run("lat_sig_catch", { iterations: 1_000_000 });
  sample();
  line("signal deliveries per host second", Math.round(r.counters["signals.delivered"]! / s), "signals/s");
}
if (want("ngpt")) {
  // Seaman's test has two sides: LinuxThreads (a sched_yield syscall and a kernel switch per
  // yield) and NGPT (7 syscalls and the user-level scheduler per yield); both are timed
  const yields = Number(process.env["SIGLAB_BENCH_YIELDS"] ?? 1_000_000);
  for (const [label, variants] of [["LinuxThreads", []], ["NGPT", [{ id: "ngpt" }]]] as const) {
    const { s } = run("ngpt_yield", { threads: 10, yields }, undefined, [...variants]);
    sample();
    line(`ngpt_yield 10 threads x ${yields.toLocaleString("en")} yields (${label})`, s, "host seconds");
  }
}
if (want("memory")) {
  // memory must stay flat with the iteration count when the timeline is off
  const heap = (n: number) => {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed;
    run("lat_sig_catch", { iterations: n });
    const after = process.memoryUsage().heapUsed;
    sample();
    return (after - before) / 1048576;
  };
  const small = heap(100_000);
  const large = heap(1_000_000);
  line("heap growth over a 100,000-iteration run", small, "MiB");
  line("heap growth over a 1,000,000-iteration run", large, "MiB");
}
line("peak RSS", peak / 1048576, "MiB");
