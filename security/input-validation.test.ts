/**
 * Issue 30, finding 7: bad input is refused with a message that states the limit. Every numeric
 * option is range-checked (a --max-seconds past setTimeout's range used to fire at once), every
 * sweep list and parameter is checked against the workload's declared parameters (their defaults
 * give type and range), whatever the source (the CLI, a bundle); the plugin API's exported values
 * cannot be changed by a plugin; a module the sandbox refuses is a "refused" error, not a syntax error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { hostLimitsFrom } from "../apps/cli/src/run/limits.js";
import { parseRepeat, parseSmp, parseTimelineLimit } from "../apps/cli/src/commands/run.js";
import { parseJobs } from "../apps/cli/src/run/parallel.js";
import { closeAllHosts, exampleSource, newHost, run, specOf } from "./harness.js";
import { killStarted, runSiglab } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "siglab-input-"));
afterAll(() => {
  closeAllHosts();
  killStarted();
  rmSync(dir, { recursive: true, force: true });
});

describe("numeric options: out of range, not a number, or given twice is refused, naming the range", () => {
  const cases: [string, () => unknown, RegExp][] = [
    ["--max-seconds 3000000", () => hostLimitsFrom({ maxSeconds: "3000000" }), /--max-seconds: expected a number of seconds from 0\.001 to 2,000,000, got '3000000'/],
    ["--max-seconds 0", () => hostLimitsFrom({ maxSeconds: "0" }), /--max-seconds: .*from 0\.001 to 2,000,000/],
    ["--max-seconds 1e400", () => hostLimitsFrom({ maxSeconds: "1e400" }), /--max-seconds: .*from 0\.001 to 2,000,000/],
    ["--max-seconds given twice", () => hostLimitsFrom({ maxSeconds: ["5", "6"] }), /--max-seconds: .*given more than once/],
    ["--max-memory 63", () => hostLimitsFrom({ maxMemory: "63" }), /--max-memory: expected a whole number of MiB from 64 to 262,144/],
    ["--max-memory 1e9", () => hostLimitsFrom({ maxMemory: "1e9" }), /--max-memory: .*from 64 to 262,144/],
    ["--max-memory 100.5", () => hostLimitsFrom({ maxMemory: "100.5" }), /--max-memory: expected a whole number/],
    ["--max-runs 0", () => hostLimitsFrom({ maxRuns: "0" }), /--max-runs: expected a whole number of runs from 1 to 1,000,000/],
    ["--max-steps 1.5", () => hostLimitsFrom({ maxSteps: "1.5" }), /--max-steps: expected a whole number of steps from 1 to/],
    ["--max-cycles 1e300", () => hostLimitsFrom({ maxCycles: "1e300" }), /--max-cycles: expected a number of cycles from 1 to/],
    ["--max-cycles with no value", () => hostLimitsFrom({ maxCycles: true }), /--max-cycles: expected a number of cycles/],
    ["--jobs 0", () => parseJobs("0"), /--jobs: .*from 1 to 256/],
    ["--jobs 1e3", () => parseJobs("1e3"), /--jobs: .*from 1 to 256/],
    ["--repeat 1001", () => parseRepeat("1001"), /--repeat: expected an integer from 1 to 1,000/],
    ["--repeat with no value", () => parseRepeat(true), /--repeat: expected an integer/],
    ["--smp 9", () => parseSmp("9"), /--smp: expected an integer from 1 to 8/],
    ["--smp with no value", () => parseSmp(true), /--smp: expected an integer from 1 to 8/],
    ["--timeline-limit 0", () => parseTimelineLimit("0"), /--timeline-limit: .*from 1 to 10,000,000/],
  ];
  it.each(cases)("%s", (_name, f, message) => {
    expect(f).toThrow(message);
  });

  it("the limits that are in range are taken (seconds to ms)", () => {
    expect(hostLimitsFrom({ maxSeconds: "2000000", maxMemory: "2048", maxRuns: "5", maxSteps: "1e6", maxCycles: "1e15" })).toEqual({ runMs: 2e9, memoryMb: 2048, maxRuns: 5, maxSteps: 1e6, maxCycles: 1e15 });
  });
});

const LONG = 240_000;

describe.concurrent("the CLI refuses bad options and parameters before any run", () => {
  it("--max-seconds 3000000 (which overflowed the timer and failed at once)", async () => {
    const r = await runSiglab(["run", "lat_syscall", "--param", "iterations=10", "--max-seconds", "3000000"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--max-seconds: expected a number of seconds from 0\.001 to 2,000,000, got '3000000'/);
    expect(r.out).toBe("");
  }, LONG);

  it("--sweep iterations=,, and --param iterations=-5 (which reported Infinity and negative cycles)", async () => {
    const rs = await Promise.all([
      runSiglab(["run", "lat_syscall", "--sweep", "iterations=,,"]),
      runSiglab(["run", "lat_syscall", "--param", "iterations=-5"]),
      runSiglab(["run", "lat_syscall", "--sweep", "iterations=10,abc"]),
      runSiglab(["run", "lat_sig_catch", "--param", "iterations=100", "--param", "nonsense=1"]),
    ]);
    for (const r of rs) {
      expect(r.code, r.out + r.err).toBe(2);
      expect(r.out, "no run was made").toBe("");
    }
    expect(rs[0]!.err).toMatch(/--sweep iterations=,,: value 1 of 3 is empty/);
    expect(rs[1]!.err).toMatch(/--param iterations=-5: .*parameter 'iterations' must be 0 or more \(its default is \d+\), got -5/);
    expect(rs[2]!.err).toMatch(/--sweep iterations=abc: .*parameter 'iterations' must be a number, got 'abc'/);
    expect(rs[3]!.err).toMatch(/--param nonsense: .* has no parameter 'nonsense' \(parameters: iterations/);
  }, LONG);
});

describe.sequential("in the sandbox, whoever asks (a bundle, the app)", () => {
  it("a parameter is checked against the workload's declared type and range", async () => {
    const h = newHost();
    const spec = (params: Record<string, number | string | boolean>) => specOf("lat_syscall", exampleSource("lat_syscall"), { params });
    const bad = await Promise.all([run(h, spec({ iterations: -5 })), run(h, spec({ iterations: "" })), run(h, spec({ iterations: true }))]);
    expect(bad.map(({ r }) => r.error?.kind)).toEqual(["config", "config", "config"]);
    expect(bad[0]!.r.error!.message).toMatch(/parameter 'iterations' must be 0 or more \(its default is \d+\), got -5/);
    expect(bad[1]!.r.error!.message).toMatch(/parameter 'iterations' must be a number, got ''/);
    expect(bad.every(({ r }) => r.totalCycles === 0 && r.metrics.length === 0)).toBe(true);
    const ok = await run(h, spec({ iterations: "20" }));
    expect(ok.r.error).toBeUndefined();
  }, 60_000);

  it("a plugin cannot change the plugin API's exported values (they are hardened, not only their getters)", async () => {
    const h = newHost();
    const manifest = { id: "mutator", version: "1.0.0", apiVersion: "2.0", displayName: "m", description: "d", options: {}, contributes: ["SyscallContribution"], main: "index.js" };
    const code = `const api = require("@siglab/plugin-api");
const changed = [];
for (const k of Object.keys(api)) {
  const v = api[k];
  if (!v || (typeof v !== "object" && typeof v !== "function")) continue;
  try { v.__pwned = 1; } catch {}
  if (v.__pwned === 1) changed.push(k);
  const p = typeof v === "function" ? v.prototype : undefined;
  if (p) { try { p.__pwned = 1; } catch {} if (p.__pwned === 1) changed.push(k + ".prototype"); }
  for (const key of Object.keys(v)) { try { v[key] = 12345; } catch {} if (v[key] === 12345) changed.push(k + "." + key); }
}
throw new Error("changed: [" + changed.join(",") + "]");`;
    const workload = `import { workload } from "siglab";\nexport default workload({ name: "w", params: {}, *main(t) { yield* t.getpid(); } });\n`;
    const r = await h.run({ spec: specOf("w", workload, { variants: [{ id: "mutator" }] }), plugins: [{ id: "mutator", manifest, origin: "mutator", main: "index.js", files: { "index.js": code } }], profiles: [] });
    expect(r.error?.message).toMatch(/changed: \[\]/);
  }, 60_000);

  it("a module the sandbox refuses (a dynamic import) is a 'refused' error, not a syntax error", async () => {
    const h = newHost();
    const imp = "imp" + "ort";
    // the text "import(" (TypeScript turns a real import() into a require, refused in turn)
    const { r } = await run(h, specOf("escape", `import { workload } from "siglab";\nconst p = "${imp}(";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); t.report("p", p.length, ""); } });\n`));
    expect(r.error).toMatchObject({ kind: "refused" });
    expect(r.error!.message).toMatch(/the text "import\(" is refused/);
    const req = await run(h, specOf("require", `// @ts-nocheck\nimport { workload } from "siglab";\nexport default workload({ name: "x", params: {}, *main(t) { yield* t.getpid(); require("fs"); } });\n`));
    expect(req.r.error).toMatchObject({ kind: "refused" });
    expect(req.r.error!.message).toMatch(/cannot import "fs"/);
  }, 60_000);
});
