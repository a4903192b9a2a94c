/**
 * Node side of the security suite: runs corpus cases through a real execution host
 * (createNodeHost, the one the CLI uses), and checks them with the corpus's own checkers.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createNodeHost, type NodeExecutionHost } from "../packages/builtin-plugins/src/host/node.js";
import { transpileWorkload } from "../apps/cli/src/run/compile.js";
import type { HostLimits } from "../packages/core/src/host/index.js";
import type { RunResult, RunSpec } from "../packages/core/src/common/index.js";
import { checkResult, checkSeeds, REFERENCE_WORKLOAD, type AttackCase } from "./corpus.js";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Small local limits: budgets fire in seconds, memory bombs end at 512 MiB of heap. */
export const LIMITS: Partial<HostLimits> = { moduleMs: 2000, runMs: 20000, memoryMb: 512 };

const hosts = new Set<NodeExecutionHost>();

export function newHost(limits: Partial<HostLimits> = LIMITS): NodeExecutionHost {
  const h = createNodeHost({ transpile: transpileWorkload, limits });
  hosts.add(h);
  return h;
}

export function closeHost(h: NodeExecutionHost): void {
  h.close();
  hosts.delete(h);
}

/** Kills every host this file started (afterAll). */
export function closeAllHosts(): void {
  for (const h of [...hosts]) closeHost(h);
}

export function specOf(id: string, source: string, more: Partial<RunSpec> = {}): RunSpec {
  return { workload: { id, file: `${id}.ts`, source }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: {}, seed: 1, ...more };
}

export function caseSpec(c: AttackCase, seed = c.seed ?? 1): RunSpec {
  const s = specOf(c.id, c.source, { seed, params: c.params ?? {}, variants: c.variants ?? [] });
  if (c.budget) s.budget = { ...c.budget };
  return s;
}

export async function run(host: NodeExecutionHost, spec: RunSpec): Promise<{ r: RunResult; json: string }> {
  const r = await host.run({ spec, plugins: [], profiles: [] });
  return { r, json: JSON.stringify(r) };
}

/** Runs case `c` in `host` and lists what is wrong (empty: it was refused as expected). */
export async function runCase(host: NodeExecutionHost, c: AttackCase): Promise<string[]> {
  if (c.expect.seeds) {
    const e = c.expect.seeds;
    const values: (number | undefined)[] = [];
    const problems: string[] = [];
    for (const seed of [...e.same, ...e.different]) {
      const { r } = await run(host, caseSpec(c, seed));
      if (r.error) problems.push(`seed ${seed}: the run failed: ${r.error.message}`);
      values.push(r.metrics.find((m) => m.name === e.metric)?.value);
    }
    return [...problems, ...checkSeeds(e, values)];
  }
  const { r, json } = await run(host, caseSpec(c));
  return checkResult(c, r, json);
}

/** The clean reference run (a short host-time budget, so a wedged worker fails it in seconds). */
export const REFERENCE_SPEC: RunSpec = specOf("reference", REFERENCE_WORKLOAD, { budget: { maxHostMs: 8000 } });

/** The reference's result in a host that has run nothing else. */
export async function freshReference(): Promise<string> {
  const h = newHost();
  try {
    const { r, json } = await run(h, REFERENCE_SPEC);
    if (r.error) throw new Error(`the reference workload fails in a fresh host: ${r.error.message}`);
    return json;
  } finally {
    closeHost(h);
  }
}

export function exampleSource(id: string): string {
  return readFileSync(`${ROOT}packages/core/examples/${id}.ts`, "utf8");
}

/**
 * Problems of a run that should be byte-identical to `expected` (both JSON of RunResults): empty
 * when equal, else a short description (its error, the first differing metric or field).
 */
export function differences(actual: string, expected: string, what = "the run"): string[] {
  if (actual === expected) return [];
  const a = JSON.parse(actual) as RunResult, e = JSON.parse(expected) as RunResult;
  if (a.error && !e.error) return [`${what} failed: [${a.error.kind}] ${a.error.message}`];
  for (const m of e.metrics) {
    const got = a.metrics.find((x) => x.name === m.name);
    if (!got || got.value !== m.value) return [`${what}: metric '${m.name}' is ${got ? got.value : "missing"}, expected ${m.value}`];
  }
  for (const key of Object.keys(e) as (keyof RunResult)[]) {
    if (JSON.stringify(a[key]) !== JSON.stringify(e[key])) return [`${what}: '${key}' differs: ${JSON.stringify(a[key]).slice(0, 300)} vs ${JSON.stringify(e[key]).slice(0, 300)}`];
  }
  return [`${what} differs from the expected JSON`];
}
