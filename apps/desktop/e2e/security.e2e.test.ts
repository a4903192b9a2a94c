/**
 * The shared attack corpus (security/corpus.ts) run in Chromium through the app's execution host:
 * the same SimClient the Run button uses (core's Supervisor over sim.worker.ts Web Workers), reached
 * through the page's test hooks. Each case's expectation is checked with the corpus's own
 * checkResult / checkSeeds; crossRun cases are followed by the reference workload, whose result
 * must equal the reference run in a fresh host byte for byte.
 *
 * KNOWN lists cases that fail for a reason this suite cannot fix, each with the reason; they still
 * run, and are reported as skipped (with what failed) only while they fail, so a fix shows as a pass.
 * Memory bombs run in a browser of their own with a small V8 heap (a crash would come fast and use
 * little of this shared machine's memory; the meter's budget follows the heap limit down).
 */
import { afterAll, beforeAll, describe, expect, it, type TestContext } from "vitest";
import type { Page } from "playwright-core";
import { checkResult, checkSeeds, CORPUS, REFERENCE_WORKLOAD, type AttackCase } from "../../../security/corpus.js";
import type { ExperimentConfig, RunResult } from "../src/common/contracts.js";
import { hostReset, hostRun, newWorkload, openSession, runAndWait, selectCpus, shownResults, type Session } from "./harness.js";

const CPU = { id: "p4-northwood", mhz: 2200 };

/**
 * Host time one case may take, as the Node side of the suite sets it with its local limits
 * (security/harness.ts, runMs 20 s): a case's own smaller budget stays; the app's 120 s default
 * would only make the runaway cases slow.
 */
const CASE_MAX_HOST_MS = 20_000;

function config(c: Pick<AttackCase, "id" | "source" | "params" | "seed" | "budget" | "variants">, seed?: number): ExperimentConfig {
  return {
    workload: { id: c.id, file: `security/${c.id}.ts`, source: c.source },
    cpus: [CPU],
    stacks: [c.variants ?? []],
    params: { ...(c.params ?? {}) },
    seed: seed ?? c.seed ?? 1,
    budget: { ...(c.budget ?? {}), maxHostMs: Math.min(c.budget?.maxHostMs ?? CASE_MAX_HOST_MS, CASE_MAX_HOST_MS) },
  };
}

const REFERENCE = { id: "reference", source: REFERENCE_WORKLOAD };

/**
 * Cases that fail for a reason this suite cannot fix, with the reason (none at present). The
 * browser host's memory hole — a Web Worker has no memory limit, Chromium gives a worker no memory
 * reading, and V8's heap limit crashed the whole renderer — is closed by the app's allocation
 * meter (src/worker/meter-runtime.ts): every memory bomb below ends with a memory-budget error.
 */
const KNOWN: Record<string, string> = {};

/** Not run on a shared development machine (none at present: the meter stops the bombs that touched GiBs of real memory). */
const NOT_RUN: Record<string, string> = {};

/** Skips a KNOWN case that still fails, saying why and what failed; fails any other. */
function knownOrFail(ctx: TestContext, id: string, problems: string[]): void {
  if (!problems.length) return;
  const why = KNOWN[id];
  if (why) {
    console.warn(`KNOWN HOLE ${id}: ${why}\n  observed: ${problems.join("; ").slice(0, 600)}`);
    ctx.skip(`known: ${why}`);
  }
  expect(problems).toEqual([]);
}

let s: Session;
let page: Page;
let reference: string;

async function one(c: Parameters<typeof config>[0], seed?: number): Promise<RunResult> {
  const [r] = await hostRun(page, config(c, seed));
  return r!;
}

beforeAll(async () => {
  s = await openSession();
  page = s.page;
  await hostReset(page);
  reference = JSON.stringify(await one(REFERENCE));
});
afterAll(async () => {
  await s?.close();
});

describe("the attack corpus in Chromium, through the app's execution host", () => {
  it("has cases", () => {
    expect(CORPUS.length).toBeGreaterThan(20);
  });

  for (const c of CORPUS.filter((x) => x.group !== "memory")) {
    it(`${c.group}: ${c.id} — ${c.title}`, { timeout: 60_000 }, async (ctx) => {
      const problems: string[] = [];
      if (c.expect.seeds) {
        const e = c.expect.seeds;
        const values: (number | undefined)[] = [];
        for (const seed of [...e.same, ...e.different]) values.push((await one(c, seed)).metrics.find((m) => m.name === e.metric)?.value);
        problems.push(...checkSeeds(e, values));
      }
      const r = await one(c);
      const json = JSON.stringify(r);
      problems.push(...checkResult(c, r, json));
      // the reference run in the same host afterwards must not see anything the case changed
      if (c.crossRun && JSON.stringify(await one(REFERENCE)) !== reference) problems.push("the reference run after this case differs from the reference run in a fresh host");
      knownOrFail(ctx, c.id, problems);
    });
  }

  it("gives workloads Temporal without Temporal.Now (no host clock)", async () => {
    const r = await one({
      id: "temporal",
      source: `import { workload } from "siglab";\nconst T: any = (globalThis as any).Temporal;\nexport default workload({ name: "temporal", params: {}, *main(t) {\n  t.report("Now", T === undefined || T.Now === undefined ? 0 : 1, "");\n  t.report("frozen", T === undefined || Object.isFrozen(T) ? 1 : 0, "");\n  yield* t.getpid();\n} });\n`,
    });
    expect(r.error).toBeUndefined();
    expect(r.metrics.map((m) => [m.name, m.value])).toEqual([["Now", 0], ["frozen", 1]]);
  });

  it("refuses require.constructor, Function constructors, fetch, postMessage and importScripts to a workload run from the editor", async () => {
    await newWorkload(
      page,
      `import { workload } from "siglab";
// the editor type-checks before a run (as the CLI does): the probe declares the names it tries
declare const require: any;
const g: any = globalThis;
/** 1 when f gave a global object of a host realm (a worker's self/globalThis) */
const escaped = (f: () => any): number => { try { const v = f(); return v && (typeof v === "object" || typeof v === "function") && ("postMessage" in v || "importScripts" in v || "fetch" in v) ? 1 : 0; } catch { return 0; } };
const fromRequire = escaped(() => (require as any).constructor("return self")());
export default workload({
  name: "escape probes",
  params: {},
  *main(t) {
    t.report("require.constructor", fromRequire, "escaped");
    t.report("function constructor", escaped(() => (function () {}).constructor("return self")()), "escaped");
    t.report("generator constructor", escaped(() => (function* () {}).constructor("return self")().next().value), "escaped");
    for (const k of ["fetch", "postMessage", "importScripts", "self", "XMLHttpRequest", "WebSocket"]) t.report(k, typeof g[k] === "undefined" ? 0 : 1, "defined");
    yield* t.getpid();
  },
});
`,
    );
    await selectCpus(page, ["p4-northwood"]);
    expect(await runAndWait(page)).toMatch(/Done: 1 run/);
    const [r] = await shownResults(page);
    expect(r!.error).toBeUndefined();
    expect(Object.fromEntries(r!.metrics.map((m) => [m.name, m.value]))).toEqual({
      "require.constructor": 0, "function constructor": 0, "generator constructor": 0,
      fetch: 0, postMessage: 0, importScripts: 0, self: 0, XMLHttpRequest: 0, WebSocket: 0,
    });
  });

  it("refuses the same at a workload's top level with a one-line error", async () => {
    const r = await one({ id: "top-level-escape", source: `import { workload } from "siglab";\nconst g = (require as any).constructor("return self")();\nexport default workload({ name: "x", params: {}, *main(t) { t.report("fetch", typeof g.fetch === "function" ? 1 : 0, ""); } });\n` });
    expect(r.error).toBeDefined();
    expect(r.error!.message).not.toMatch(/\n/);
    expect(r.metrics).toEqual([]);
  });

  it("logged no errors to the console", () => {
    expect(s.errors).toEqual([]);
  });
});

// ---- memory bombs, in a browser of their own ------------------------------------------------------

describe("memory bombs in Chromium, through the app's execution host", () => {
  let m: Session | null = null;

  for (const c of CORPUS.filter((x) => x.group === "memory")) {
    if (NOT_RUN[c.id]) {
      it.skip(`${c.id} — ${c.title} (not run: ${NOT_RUN[c.id]})`, () => undefined);
      continue;
    }
    it(`${c.id} — ${c.title}`, { timeout: 120_000 }, async (ctx) => {
      m ??= await openSession({ chromiumArgs: ["--js-flags=--max-old-space-size=384"] });
      const session = m;
      let crashed = false;
      session.page.once("crash", () => (crashed = true));
      let problems: string[];
      try {
        const [r] = await hostRun(session.page, config(c));
        problems = checkResult(c, r!, JSON.stringify(r));
      } catch (e) {
        problems = [`${crashed ? "the renderer crashed" : "the page failed"}: ${String(e).split("\n")[0]}`];
      }
      if (crashed || session.page.isClosed()) {
        m = null;
        await session.close().catch(() => undefined);
      }
      knownOrFail(ctx, c.id, problems);
    });
  }

  afterAll(async () => {
    await m?.close();
  });
});
