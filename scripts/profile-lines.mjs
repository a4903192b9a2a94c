/**
 * `pnpm profile-lines <file.cpuprofile> [count]` — the hottest source lines of a `pnpm profile-run
 * --cpu-prof` profile, with their text: V8's positionTicks (self samples per line) summed over every
 * function of the profile-run bundle. Function-level self time hides where in a function the time
 * goes; this found the run queue's splice (docs/architecture.md). Samples skid: a hot line right
 * after inlined calls may carry some of their time, so confirm a finding with an A/B run.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const [file, countArg] = process.argv.slice(2);
if (!file) {
  console.error("usage: pnpm profile-lines <file.cpuprofile> [count]  (a profile of `pnpm profile-run --cpu-prof`)");
  process.exit(2);
}
const count = Number(countArg ?? 40);
if (!Number.isInteger(count) || count < 1) {
  console.error(`profile-lines: the count must be a whole number above 0, got '${countArg}'`);
  process.exit(2);
}
const bundle = join(dirname(fileURLToPath(import.meta.url)), "..", "node_modules/.cache/siglab/profile-run.mjs");
let profile, source;
try {
  profile = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(profile.nodes)) throw new Error("no nodes: not a .cpuprofile");
} catch (e) {
  console.error(`profile-lines: ${file}: ${e.message}`);
  process.exit(1);
}
try {
  source = readFileSync(bundle, "utf8").split("\n");
} catch {
  console.error(`profile-lines: ${bundle} is missing: run \`pnpm profile-run\` first (the profile's lines are that bundle's)`);
  process.exit(1);
}
const ticks = new Map();
let total = 0;
for (const n of profile.nodes) {
  if (!n.callFrame.url.endsWith("/profile-run.mjs")) continue;
  for (const t of n.positionTicks ?? []) {
    ticks.set(t.line, (ticks.get(t.line) ?? 0) + t.ticks);
    total += t.ticks;
  }
}
if (!total) {
  console.error(`profile-lines: ${file} has no line samples of the profile-run bundle (was it made with \`pnpm profile-run --cpu-prof\`?)`);
  process.exit(1);
}
console.log(`${total} samples in the bundle's code; the ${Math.min(count, ticks.size)} hottest lines:`);
for (const [line, n] of [...ticks].sort((a, b) => b[1] - a[1]).slice(0, count)) {
  console.log(`${String(n).padStart(6)} ${((100 * n) / total).toFixed(1).padStart(5)}%  ${String(line).padStart(6)}  ${(source[line - 1] ?? "").trim().slice(0, 110)}`);
}
