import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
/** the CLI bundle built from apps/cli/src for this test run (built-cli.setup.ts) */
const BIN = inject("siglabBin");
function siglab(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("siglab run", () => {
  it("prints one JSON document with the contract fields for CPUs x stacks", () => {
    const r = siglab(["run", "lat_syscall", "--param", "iterations=500", "--cpu", "p4-northwood@2200", "--cpu", "p6-coppermine@1000", "--json"]);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.out) as { runs: Record<string, unknown>[] };
    expect(doc.runs).toHaveLength(2);
    for (const run of doc.runs) {
      for (const k of ["workload", "cpu", "variants", "params", "seed", "metrics", "phases", "counters", "findings", "totalCycles"]) expect(run).toHaveProperty(k);
    }
    expect((doc.runs[1]!["cpu"] as { id: string }).id).toBe("p6-coppermine");
  });

  it("rejects an unknown example, profile or plugin with the valid ids", () => {
    const a = siglab(["run", "nope"]);
    expect(a.code).not.toBe(0);
    expect(a.err).toMatch(/unknown example 'nope'.*lat_syscall/);
    const b = siglab(["run", "lat_syscall", "--cpu", "p9@100"]);
    expect(b.code).not.toBe(0);
    expect(b.err).toMatch(/unknown CPU profile 'p9'.*p4-northwood/);
    const c = siglab(["run", "lat_syscall", "--variant", "nope", "--param", "iterations=10"]);
    expect(c.code).not.toBe(0);
    expect(c.out + c.err).toMatch(/unknown plugin 'nope'/);
  });

  it("reports a type error in a workload file as file:line:column", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-cli-"));
    const f = join(dir, "bad.ts");
    writeFileSync(f, `import { workload } from "siglab";\nexport default workload({ name: "x", params: {}, *main(t) {\n  yield* t.getpid(42);\n} });\n`);
    const r = siglab(["run", f]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bad\.ts:3:\d+: Expected 0 arguments/);
  });

  it("reports a throwing workload with the task and simulated time, and stops a runaway one", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-cli-"));
    const f = join(dir, "throws.ts");
    writeFileSync(f, `import { workload } from "siglab";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); throw new Error("kaput"); } });\n`);
    const r = siglab(["run", f]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/ERROR \(workload\).*kaput.*\[task 1, cycle \d+/);
    // the workload's own line (mapped back from the transpiled JavaScript), once
    expect(r.out).toMatch(/ERROR \(workload\): [^ ]*throws\.ts:2:\d+: task 1 threw at cycle [\d.]+: kaput/);
    const g = join(dir, "spin.ts");
    writeFileSync(g, `import { workload } from "siglab";\nexport default workload({ name: "x", params: {}, *main(t) { for (;;) yield* t.getpid(); } });\n`);
    const s = siglab(["run", g, "--json", "--max-steps", "100000"]);
    // the step budget stops it; the run reports a budget error instead of hanging
    expect(JSON.parse(s.out).runs[0].error.kind).toBe("budget");
    // a loop that never yields to the simulator is stopped by the host-time budget (the sandbox dies, the CLI does not)
    const h = join(dir, "hang.ts");
    writeFileSync(h, `import { workload } from "siglab";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); for (;;) {} } });\n`);
    const u = siglab(["run", h, "--max-seconds", "2"]);
    expect(u.code).toBe(1);
    expect(u.out).toMatch(/ERROR \(budget\): .*hang\.ts: stopped after 2 s of host time/);
  }, 120_000);

  it("says what to write instead when the sandbox refuses text that looks like an HTML comment or import(", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-cli-"));
    const f = join(dir, "html.ts");
    writeFileSync(f, `import { workload } from "siglab";\nconst s = "<" + "!-- x";\nconst u = "<!-- x";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); t.report("n", s.length + u.length, ""); } });\n`);
    const r = siglab(["run", f]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/html\.ts: the text "<!--" or "-->" is refused anywhere in a module, even in a string .*write it as "<" \+ "!--"/);
    writeFileSync(f, `import { workload } from "siglab";\nconst s = "<" + "!-- x";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); t.report("n", s.length, ""); } });\n`);
    expect(siglab(["run", f]).code).toBe(0);
  });

  it("`siglab plugin new --help` prints the command's help and succeeds", () => {
    const r = siglab(["plugin", "new", "--help"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/siglab plugins <action> \[arg\]/);
    expect(r.out + r.err).not.toMatch(/unknown command/);
  });

  it("prints a kernel path op by op with --inspect", () => {
    const r = siglab(["run", "lat_syscall", "--param", "iterations=100", "--cpu", "p6-coppermine@1000", "--inspect", "system_call"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/path system_call \[syscall.entry, core\]: ran [\d,]+ times, [\d,]+ cycles in total/);
    expect(r.out).toMatch(/int \$0x80\s+int_gate\s+1\s+\d+/);
    expect(r.out).toMatch(/SAVE_ALL\s+push\s+9/);
  });

  it("--timeline-limit bounds the timeline (and implies --timeline); stderr says a timeline was cut; a bad limit is refused", () => {
    const r = siglab(["run", "lat_syscall", "--param", "iterations=100", "--timeline-limit", "10"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^== lat_syscall null \(lat_syscall\) on p4-northwood@2200 MHz, baseline \(seed 1\)$/m);
    expect(r.out).toMatch(/ {3}timeline \(10 events, the first of [\d,]+: --timeline-limit N records more; µs from the start of the run\):/);
    // the first events are the idle task's and task 1's (with cold caches the idle task's first schedule takes more)
    expect(r.out).toMatch(/ {5}(task 1|idle task \(pid 0\)): \d+ events? \(/);
    expect(r.err).toMatch(/siglab run: run 1 \(p4-northwood@2200 baseline\): the timeline stopped after 10 events; [\d,]+ more were not recorded \(raise the bound with --timeline-limit N, up to 10,000,000\)/);
    const j = siglab(["run", "lat_syscall", "--param", "iterations=100", "--timeline-limit", "10", "--json"]);
    expect(JSON.parse(j.out).runs[0].timeline).toHaveLength(10);
    const bad = siglab(["run", "lat_syscall", "--timeline-limit", "0"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--timeline-limit: expected a whole number of timeline events from 1 to 10,000,000 .*got '0'/);
  });

  it("lists examples, profiles and plugins", () => {
    const r = siglab(["list", "--json"]);
    const d = JSON.parse(r.out);
    expect(d.examples.map((e: { id: string }) => e.id)).toContain("sa_nofp_hazard");
    expect(d.profiles.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(["p4-northwood", "p6-coppermine", "p5-p54c", "zen5"]));
    expect(d.plugins.map((e: { id: string }) => e.id)).toContain("sa-nofp");
  });
});
