/**
 * `pnpm profile-run <example> ['<params JSON>'] [variant,variant]`: one example run three times in
 * this process, in the realm users' runs execute in — locked down first, then the sandbox
 * (createSandbox: the compartment, the hardened façades) — printing each repetition's CPU time.
 * For A/B comparisons and `node --cpu-prof`: an in-process run without lockdown hides what frozen
 * intrinsics cost (docs/architecture.md). Not a test; nothing is asserted.
 * SIGLAB_PROFILE_RUN_REPS=n runs n repetitions instead of three; SIGLAB_PROFILE_RUN_JSON=1 prints
 * each as one JSON line ({ rep, cpuSeconds, counters }) for `pnpm bench` (bench-cpu.ts).
 */
import "@siglab/core/host/lockdown";
import { createSandbox } from "@siglab/core/host/sandbox";
import { EXAMPLES, type RunResult } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { transpileWorkloadWithMap } from "./run/compile.js";

const [id, paramsJson, variantsCsv] = process.argv.slice(2);
const e = EXAMPLES.find((x) => x.id === id);
if (!e) {
  console.error(`usage: profile-run <example> ['<params JSON>'] [variant,...]; examples: ${EXAMPLES.map((x) => x.id).join(", ")}`);
  process.exit(2);
}
const variants = (variantsCsv ?? "").split(",").filter(Boolean).map((v) => ({ id: v }));
let params: Record<string, number | string | boolean>;
try {
  params = JSON.parse(paramsJson ?? "{}") as Record<string, number | string | boolean>;
} catch (err) {
  console.error(`profile-run: the parameters must be a JSON object such as '{"iterations":1000}' (${(err as Error).message})`);
  process.exit(2);
}
let settle: ((r: RunResult) => void) | null = null;
const sandbox = createSandbox({
  builtinPlugins: BUILTIN_PLUGINS,
  post: (m) => {
    if (m.type === "result") settle?.(m.result);
  },
  memoryOver: () => null,
});
const reps = Number(process.env["SIGLAB_PROFILE_RUN_REPS"] ?? 3);
if (!Number.isInteger(reps) || reps < 1) {
  console.error(`profile-run: SIGLAB_PROFILE_RUN_REPS must be a whole number above 0, got '${process.env["SIGLAB_PROFILE_RUN_REPS"]}'`);
  process.exit(2);
}
const asJson = process.env["SIGLAB_PROFILE_RUN_JSON"] === "1";
const { js } = transpileWorkloadWithMap(e.source, e.file);
for (let rep = 1; rep <= reps; rep++) {
  const t0 = process.cpuUsage();
  const done = new Promise<RunResult>((resolve) => (settle = resolve));
  sandbox.handle({
    type: "run",
    id: rep,
    spec: { workload: { id: e.id, file: e.file, source: e.source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants, params, seed: 1, budget: { maxSteps: 1e12, maxCycles: 1e18, maxHostMs: 1e9 } },
    js,
    plugins: [],
    profiles: [],
  });
  const r = await done;
  const u = process.cpuUsage(t0);
  if (r.error) {
    console.error(`profile-run: ${id} failed: ${r.error.message}`);
    process.exit(1);
  }
  const cpuSeconds = (u.user + u.system) / 1e6;
  if (asJson) console.log(JSON.stringify({ rep, cpuSeconds, counters: r.counters }));
  else console.log(`${id} repetition ${rep}: ${cpuSeconds.toFixed(3)} s CPU`, JSON.stringify(r.metrics).slice(0, 160));
}
