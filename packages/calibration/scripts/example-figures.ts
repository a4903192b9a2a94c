/**
 * Every shipped example's reported metrics on each era CPU (with its suggested variant stack when it
 * needs one), as JSON lines: the "before/after" of a model change is two runs of this script, one
 * per checkout, compared by `example-figures.ts --compare before.jsonl after.jsonl` (a Markdown table).
 *   node --import tsx packages/calibration/scripts/example-figures.ts > after.jsonl
 * Examples run at their default parameters except that long loops are capped (the metrics are
 * per-iteration figures), in-process, seed 1.
 */
import { readFileSync } from "node:fs";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { EXAMPLES } from "@siglab/core";
import { runSource } from "../../core/test/harness.js";

const CPUS: [string, number][] = [["p5-p54c", 133], ["p6-coppermine", 1000], ["p6-katmai", 500], ["p4-northwood", 2200], ["k7-palomino", 1400]];
const CAP: Record<string, number> = { iterations: 2000, yields: 2000, rounds: 20, syscalls: 200 };

interface Row { example: string; cpu: string; metric: string; value: number; unit: string }

function run(): void {
  const known = new Set(CPUS.map(([c]) => c));
  for (const e of EXAMPLES) {
    if (e.suggestedCpu && !known.has(e.suggestedCpu.id)) continue;
    const declared = /params:\s*\{([^}]*)\}/.exec(e.source)?.[1] ?? "";
    const params: Record<string, number> = {};
    for (const [k, v] of Object.entries(CAP)) if (new RegExp(`\\b${k}\\s*:`).test(declared)) params[k] = v;
    for (const [cpu, mhz] of CPUS) {
      const r = runSource(e.source, { cpu, mhz, variants: e.suggestedVariants ?? [], params, plugins: BUILTIN_PLUGINS }, e.file);
      if (r.error) {
        process.stdout.write(JSON.stringify({ example: e.id, cpu: `${cpu}@${mhz}`, metric: "error", value: NaN, unit: r.error.kind }) + "\n");
        continue;
      }
      for (const m of r.metrics) process.stdout.write(JSON.stringify({ example: e.id, cpu: `${cpu}@${mhz}`, metric: m.name, value: m.value, unit: m.unit } satisfies Row) + "\n");
    }
  }
}

function compare(beforeFile: string, afterFile: string): void {
  const read = (f: string) => readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Row);
  const key = (r: Row) => `${r.example}\0${r.cpu}\0${r.metric}`;
  const before = new Map(read(beforeFile).map((r) => [key(r), r]));
  const fmt = (v: number) => (Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(3) : v.toPrecision(3));
  console.log("| example | CPU | metric | before | after | change |\n|---|---|---|---|---|---|");
  for (const a of read(afterFile)) {
    const b = before.get(key(a));
    if (!b || !Number.isFinite(a.value) || !Number.isFinite(b.value)) continue;
    if (a.unit === "count" || a.unit === "" || a.unit === "bytes") continue;
    const change = b.value === 0 ? "" : `${((a.value / b.value - 1) * 100).toFixed(1)}%`;
    console.log(`| ${a.example} | ${a.cpu} | ${a.metric} | ${fmt(b.value)} ${b.unit} | ${fmt(a.value)} ${a.unit} | ${change} |`);
  }
}

const args = process.argv.slice(2);
if (args[0] === "--compare") compare(args[1]!, args[2]!);
else run();
