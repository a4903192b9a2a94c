/**
 * `pnpm bench`: simulator speed and memory, printed as figures (`<name>: <value> <unit>`), never
 * asserted (machines here are noisy). Speed is measured where users' runs execute: in the execution
 * host's locked-down sandbox worker (wall time of a long run minus a token run of the same
 * workload). Memory is measured in this process, on the simulator alone. Targets (DESIGN §8,
 * issue 12): >= 15 M null syscalls/s, >= 2 M signal deliveries/s, ngpt_yield at full size
 * (10 threads x 1,000,000 yields) <= 5 s on each side (LinuxThreads and NGPT), flat memory. Sweep
 * throughput: the runs of one sweep per second of wall time as `siglab run --sweep` executes them
 * (warm hosts), --jobs 1 and --jobs <cores> (target: >= 1.8x on 2 cores). Beside the null
 * syscall and signal rates, the same loops run natively here (the probe, when a C compiler is
 * present) and the ratio of host time per simulated iteration to the native one. Profile in the same
 * realm (lockdown first): an in-process run without it hides costs the frozen intrinsics add.
 * The CLI's own figures (start-up against `node -e 0`, the result cache, --jobs for short and long
 * sweeps) come from bench-cli.ts: `pnpm bench cli`. Deliveries and NGPT yields per CPU second
 * (issue 33's targets, against main at e189882) come from bench-cpu.ts: `pnpm bench cpu`.
 */
import { fmt, unitText } from "./numbers.js";
import { availableParallelism } from "node:os";
import { EXAMPLES, type RunResult, type RunSpec } from "@siglab/core";
import { executionHost, runInSandbox, stopSandbox } from "./run/host.js";
import { runSpecs } from "./run/parallel.js";
import { measureNative } from "./bench-native.js";

const only = process.argv.slice(2);
// the simulator runs where it runs for users: in the execution host's locked-down sandbox worker
const host = executionHost();

/**
 * One run through the host, timed in wall-clock seconds minus the same run at a token size (the
 * host's fixed cost per run: message passing, compartment, kernel set-up), so the figure is the
 * simulation's own speed.
 */
async function timed(id: string, params: Record<string, number | string | boolean>, cpu = { id: "p4-northwood", mhz: 2200 }, variants: { id: string }[] = []): Promise<{ r: RunResult; s: number }> {
  const e = EXAMPLES.find((x) => x.id === id)!;
  const spec = (p: Record<string, number | string | boolean>) => ({ workload: { id, file: e.file, source: e.source }, cpu, variants, params: p, seed: 1, budget: { maxSteps: 1e9, maxCycles: 1e15, maxHostMs: 600_000 } });
  const t0 = performance.now();
  const r = await host.run({ spec: spec(params), plugins: [], profiles: [] });
  const s = (performance.now() - t0) / 1000;
  if (r.error) throw new Error(`${id}: ${r.error.message}`);
  return { r, s };
}

function line(name: string, value: number, unit: string): void {
  console.log(`${name}: ${fmt(value)} ${unitText(unit)}`);
}

const want = (k: string) => !only.length || only.includes(k);

/** Prints the rate and returns it (per host second). */
async function rate(id: string, counter: string, small: number, large: number, label: string, params: Record<string, string | boolean> = {}): Promise<number> {
  await timed(id, { ...params, iterations: small }); // warm up the JIT
  const base = await timed(id, { ...params, iterations: 1 });
  const { r, s } = await timed(id, { ...params, iterations: large });
  const perSecond = r.counters[counter]! / Math.max(1e-6, s - base.s);
  line(label, Math.round(perSecond), `${counter.split(".")[1]}/s`);
  return perSecond;
}

// getpid: the null call's hottest path (lat_syscall's default is lmbench's getppid)
const syscallRate = want("syscalls") ? await rate("lat_syscall", "syscalls.getpid", 200_000, 3_000_000, "null syscalls per host second", { call: "getpid" }) : 0;
// the kill-and-catch loop alone (lmbench's kill(me, 0) loop, which lat_sig_catch subtracts, delivers nothing)
const signalRate = want("signals") ? await rate("lat_sig_catch", "signals.delivered", 50_000, 1_000_000, "signal deliveries per host second", { subtractSend: false }) : 0;
if (want("native")) {
  // the same two loops run natively on this machine (the probe), beside the simulator's host time
  // for one simulated iteration of each: below 1 the simulation is cheaper than the real thing
  const native = measureNative();
  if ("skipped" in native) console.log(`native loops: skipped (${native.skipped})`);
  else {
    line("native getppid loop on this machine (probe)", native.nullSyscallUs, "us per call");
    line("native kill-and-catch loop on this machine (probe)", native.killAndCatchUs, "us per delivery");
    if (syscallRate) line("host time of a simulated null syscall / a native one", 1e6 / syscallRate / native.nullSyscallUs, "x");
    if (signalRate) line("host time of a simulated signal delivery / a native one", 1e6 / signalRate / native.killAndCatchUs, "x");
  }
}
if (want("ngpt")) {
  // Seaman's test has two sides: LinuxThreads (a sched_yield syscall and a kernel switch per
  // yield) and NGPT (7 syscalls and the user-level scheduler per yield); both are timed
  const yields = Number(process.env["SIGLAB_BENCH_YIELDS"] ?? 1_000_000);
  for (const [label, variants] of [["LinuxThreads", []], ["NGPT", [{ id: "ngpt" }]]] as const) {
    const { s } = await timed("ngpt_yield", { threads: 10, yields }, undefined, [...variants]);
    line(`ngpt_yield 10 threads x ${yields.toLocaleString("en")} yields (${label})`, s, "host seconds");
  }
}
if (want("cpu")) {
  // the same two loops as CPU time in the locked-down realm, against main before issue 33's part 3
  const { benchCpu } = await import("./bench-cpu.js");
  benchCpu(line);
}
if (want("sweep")) {
  // a 16-run sweep through the CLI's own path (runSpecs over the pool of execution hosts, results
  // in run order), on a warm pool: each of the `jobs` hosts has started and run once, so the
  // figure is the runs' throughput (a command also pays about a second of start-up per host)
  const e = EXAMPLES.find((x) => x.id === "lat_sig_catch")!;
  const spec = (iterations: number): RunSpec => ({ workload: { id: e.id, file: e.file, source: e.source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { iterations }, seed: 1 });
  const specs = Array.from({ length: 16 }, (_, i) => spec(60_000 + 2_000 * i));
  const cores = availableParallelism();
  let reference = "";
  for (const jobs of new Set([1, cores])) {
    stopSandbox();
    await runSpecs(Array.from({ length: jobs }, () => spec(2_000)), (s) => runInSandbox(s), { jobs });
    const t0 = performance.now();
    const results = await runSpecs(specs, (s) => runInSandbox(s), { jobs });
    const s = (performance.now() - t0) / 1000;
    const failed = results.find((r) => r.error);
    if (failed) throw new Error(`sweep: ${failed.error!.message}`);
    const json = JSON.stringify(results);
    if (reference && json !== reference) throw new Error(`sweep: --jobs ${jobs} gave other results than --jobs 1 (a bug, unless the sources changed while the bench ran: each pool builds the host from the sources of its start)`);
    reference = json;
    line(`sweep throughput --jobs ${jobs}`, specs.length / s, "runs/s");
  }
}
stopSandbox();
if (want("cli")) {
  // start-up, the result cache and --jobs as a user meets them: the installed command, timed whole
  const { benchCli } = await import("./bench-cli.js");
  benchCli(line);
}
if (want("memory")) {
  // memory must stay flat with the iteration count when the timeline is off
  const { heapGrowth } = await import("./bench-memory.js");
  line("heap growth over a 100,000-iteration run", heapGrowth(100_000), "MiB");
  line("heap growth over a 1,000,000-iteration run", heapGrowth(1_000_000), "MiB");
  line("peak RSS of the memory runs", process.memoryUsage().rss / 1048576, "MiB");
}
