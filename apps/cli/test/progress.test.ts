/**
 * Progress on stderr (run/progress.ts) and results streamed in run order: the line's content (N/M
 * done, ETA, the current run), a plain line off a terminal only once a command has worked for 2 s
 * and then at most every 5 s, --quiet and SIGLAB_QUIET; runThroughCache hands each result over as
 * soon as it and the runs before it are done; the CLI prints a sweep's first run before its slow
 * last run ends.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { RunResult, RunSpec } from "@siglab/core";
import { etaText, ProgressLine, setProgressQuiet } from "../src/run/progress.js";
import { runThroughCache } from "../src/cache/results.js";

const BIN = inject("siglabBin");

function plain() {
  const writes: string[] = [];
  return { writes, stream: { isTTY: false, write: (s: string) => writes.push(s) } };
}

describe("the progress line", () => {
  it("off a terminal: nothing for the first 2 s, then a plain line with N/M, the ETA and the current run, at most every 5 s", () => {
    const t = plain();
    let clock = 0;
    const p = new ProgressLine(10, t.stream, () => clock, {});
    p.started("lat_sig_catch p4-northwood@2200 [sa-nofp]");
    p.update(0, 1);
    clock = 1000;
    p.update(1, 1);
    expect(t.writes).toEqual([]); // a short command says nothing
    clock = 2500;
    p.update(2, 1);
    expect(t.writes).toHaveLength(1);
    // 2 runs in 2.5 s: 8 left take about 10 s
    expect(t.writes[0]).toBe("siglab: 2/10 runs done, 1 running, about 10 s left (now: lat_sig_catch p4-northwood@2200 [sa-nofp])\n");
    expect(t.writes[0]).not.toMatch(/[\r\x1b]/);
    clock = 6000;
    p.update(3, 1);
    p.tick();
    expect(t.writes).toHaveLength(1);
    clock = 7600;
    p.tick();
    expect(t.writes).toHaveLength(2);
    p.clear(); // nothing to take away off a terminal
    expect(t.writes).toHaveLength(2);
  });

  it("on a terminal: one line redrawn in place, cut to the terminal's width", () => {
    const writes: string[] = [];
    let clock = 0;
    const p = new ProgressLine(4, { isTTY: true, columns: 60, write: (s: string) => writes.push(s) }, () => clock, {});
    p.started("a-run-with-a-very-long-name p4-northwood@2200 [baseline]");
    p.update(0, 1);
    clock = 1000;
    p.update(1, 1, true);
    expect(writes[0]!.startsWith("\r\x1b[Ksiglab: 0/4 runs done, 1 running")).toBe(true);
    const last = writes.at(-1)!;
    expect(last.startsWith("\r\x1b[Ksiglab: 1/4 runs done, 1 running, about 3 s left")).toBe(true);
    expect(last.length - "\r\x1b[K".length).toBeLessThanOrEqual(59);
    expect(last.endsWith("…")).toBe(true);
    p.clear();
    expect(writes.at(-1)).toBe("\r\x1b[K");
  });

  it("--quiet and SIGLAB_QUIET=1 turn it off", () => {
    const t = plain();
    let clock = 0;
    const byEnv = new ProgressLine(3, t.stream, () => clock, { SIGLAB_QUIET: "1" });
    setProgressQuiet(true);
    const byFlag = new ProgressLine(3, t.stream, () => clock, {});
    setProgressQuiet(false);
    clock = 10_000;
    for (const p of [byEnv, byFlag]) p.update(1, 1, true);
    expect(t.writes).toEqual([]);
  });

  it("counts runs read from the result cache as done, and estimates from the runs simulated", () => {
    const t = plain();
    let clock = 0;
    const p = new ProgressLine(10, t.stream, () => clock, {}, 6);
    clock = 3000;
    p.update(1, 1);
    expect(t.writes[0]).toMatch(/^siglab: 7\/10 runs done, 1 running, about 9 s left/);
    expect(etaText(125_000)).toBe("about 2 min left");
  });
});

describe("results in run order, as they finish", () => {
  it("runThroughCache hands over a run's result once it and those before it are done, before later runs finish", async () => {
    const events: string[] = [];
    const gates = new Map<number, () => void>();
    const specs = [0, 1, 2].map((i) => ({ workload: { id: `w${i}`, file: `w${i}.ts`, source: "" }, cpu: { id: "p4-northwood", mhz: 2200 }, variants: [], params: { i }, seed: 1 }) as RunSpec);
    const run = (spec: RunSpec): Promise<RunResult> => {
      const i = spec.params["i"] as number;
      events.push(`start ${i}`);
      return new Promise((done) =>
        gates.set(i, () => {
          events.push(`end ${i}`);
          done({ workload: spec.workload.id } as RunResult);
        }),
      );
    };
    const finished = runThroughCache(specs, run, { jobs: 1, cache: false, sandbox: {}, onResult: (i) => events.push(`result ${i}`) });
    const tick = () => new Promise((r) => setTimeout(r, 5));
    for (const i of [0, 1, 2]) {
      while (!gates.has(i)) await tick();
      gates.get(i)!();
      while (!events.includes(`result ${i}`)) await tick();
    }
    // each result was out before the next run finished (the first long before the last)
    expect(events).toEqual(["start 0", "end 0", "result 0", "start 1", "end 1", "result 1", "start 2", "end 2", "result 2"]);
    const results = await finished;
    expect(results.map((r) => r.workload)).toEqual(["w0", "w1", "w2"]);
    expect(events.filter((e) => e.startsWith("result"))).toEqual(["result 0", "result 1", "result 2"]);
  });
});

describe("the CLI", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "siglab-progress-"));
    writeFileSync(join(root, "slow.ts"), `import { workload } from "siglab";
// n host-side loop steps (seconds for 10^9), then one system call
export default workload({ name: "slow", params: { n: 10 }, *main(t, { n }) { let x = 0; for (let i = 0; i < n; i++) x = (x + i) % 7919; yield* t.getpid(); t.report("spin", n, "count"); t.report("x", x, "value"); } });
`);
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** The command's stdout and stderr chunks in the order they arrived. */
  function siglab(args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; events: { from: "out" | "err"; text: string }[] }> {
    return new Promise((resolve) => {
      const c = spawn(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, SIGLAB_QUIET: "", ...env } });
      const events: { from: "out" | "err"; text: string }[] = [];
      c.stdout.setEncoding("utf8").on("data", (d: string) => events.push({ from: "out", text: d }));
      c.stderr.setEncoding("utf8").on("data", (d: string) => events.push({ from: "err", text: d }));
      c.on("close", (code) => resolve({ code, events }));
    });
  }
  // the last point takes seconds: the progress line comes while it runs, after the first results
  const sweep = ["run", "slow.ts", "--sweep", "n=10,20,1000000000", "--jobs", "1"];

  it("off a terminal, a slow sweep prints a plain progress line on stderr, after the first run's results are out", async () => {
    const r = await siglab(sweep);
    expect(r.code).toBe(0);
    const err = r.events.filter((e) => e.from === "err").map((e) => e.text).join("");
    expect(err).toMatch(/^siglab: 2\/3 runs done, 1 running, about \d+ (s|min) left \(now: slow p4-northwood@2200 \[baseline\] n=1000000000\)$/m);
    expect(err).not.toMatch(/[\r\x1b]/);
    const firstOut = r.events.findIndex((e) => e.from === "out" && e.text.includes("== slow on p4-northwood@2200 MHz, baseline, n=10"));
    const firstProgress = r.events.findIndex((e) => e.from === "err" && e.text.includes("runs done"));
    expect(firstOut).toBeGreaterThanOrEqual(0);
    expect(firstOut).toBeLessThan(firstProgress);
    const out = r.events.filter((e) => e.from === "out").map((e) => e.text).join("");
    expect(out.indexOf("n=10 (seed 1)")).toBeLessThan(out.indexOf("n=20 (seed 1)"));
    expect(out.indexOf("n=20 (seed 1)")).toBeLessThan(out.indexOf("n=1000000000 (seed 1)"));
    expect(out).toMatch(/summary of 3 runs/);
  }, 120_000);

  it("--quiet: nothing on stderr; --json: one document", async () => {
    const q = await siglab([...sweep, "--quiet"]);
    expect(q.code).toBe(0);
    expect(q.events.filter((e) => e.from === "err")).toEqual([]);
    const j = await siglab(["run", "slow.ts", "--sweep", "n=10,20,30", "--json"]);
    const doc = JSON.parse(j.events.filter((e) => e.from === "out").map((e) => e.text).join("")) as { runs: RunResult[] };
    expect(doc.runs.map((x) => x.params["n"])).toEqual([10, 20, 30]);
  }, 120_000);
});
