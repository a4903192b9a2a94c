/**
 * Issue 30, finding 3: terminal-safe output. Text from a workload, a bundle or a plugin — an error
 * message, a metric name and unit, a finding, a log line, a workload's name, a plugin's name —
 * carrying ESC sequences (erase line, cursor up, window title, OSC 52 clipboard), C1 controls, a
 * carriage return, newlines and bidirectional overrides is printed by `run`, `bundle info`,
 * `bundle verify`, `bundle run`, `export csv` and `plugins list|info` with every such character
 * escaped: no control byte reaches stdout or stderr (or a CSV file), and a bundle cannot erase
 * `bundle verify`'s FAILED line or fake an "identical" verdict on a line of its own.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildEntries, manifestFor, zipEntries } from "../packages/core/src/bundle/write.js";
import { BUILTIN_PROFILE_FILES } from "../packages/cpu-profiles/src/index.js";
import { emptyResult } from "../packages/core/src/common/empty-result.js";
import type { RunResult } from "../packages/core/src/common/results.js";
import { killStarted, runSiglab, type Outcome } from "./cli-process.js";

const dir = mkdtempSync(join(tmpdir(), "siglab-terminal-"));
afterAll(() => {
  killStarted();
  rmSync(dir, { recursive: true, force: true });
});

/** erase the line, back to its start, up one line, a fake verdict, window title, OSC 52 clipboard, C1 CSI, a bidi override, DEL */
const HOSTILE = "\x1b[2K\r\x1b[1A\nidentical: all 1 runs reproduce the bundle's results\n\x1b]0;pwned\x07\x1b]52;c;cHduZWQ=\x07\u009b2J\u202eevil\u2066\x7f";
/** the same in a JavaScript string literal */
const LITERAL = JSON.stringify(HOSTILE);
/** a workload's name as its source spells it (no line break: the CLI reads it from the text) */
const RAW_NAME = "\x1b]0;pwned-title\x07\x1b[2J\u009b1m\u202eeman";

/** Every character no terminal should receive from foreign text (newlines and tabs are the output's own). */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
function unsafeIn(text: string): string[] {
  return [...new Set(text.match(UNSAFE) ?? [])].map((c) => `U+${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
const expectClean = (what: string, r: Outcome): void => {
  // CRLF line ends (CSV's) are the output's own
  expect(unsafeIn(r.out.replace(/\r\n/g, "\n")), `${what}: stdout`).toEqual([]);
  expect(unsafeIn(r.err), `${what}: stderr`).toEqual([]);
};

const WORKLOAD = `// @ts-nocheck
import { workload } from "siglab";
export default workload({
  name: "${RAW_NAME}",
  params: { mode: 0, label: "x" },
  *main(t, { mode, label }) {
    yield* t.getpid();
    if (mode === 1) t.report(${LITERAL}, 1, "");
    if (mode === 2) t.report("fine", 1, ${LITERAL});
    if (mode === 3) { t.log(${LITERAL}); t.report("logged", 1, ""); return; }
    throw new Error(${LITERAL} + label);
  },
});
`;
const workloadFile = join(dir, "hostile.ts");
writeFileSync(workloadFile, WORKLOAD);

/** A bundle of that workload whose stored result carries hostile text in every string field. */
function hostileBundle(): string {
  const experiment = { workload: { id: "hostile", file: "hostile.ts", source: WORKLOAD }, cpus: [{ id: "p4-northwood", mhz: 2200 }], stacks: [[]], params: { mode: 0, label: HOSTILE }, seed: 1 };
  const spec = { workload: experiment.workload, cpu: experiment.cpus[0]!, variants: [], params: experiment.params, seed: 1 };
  const stored: RunResult = {
    ...emptyResult(spec),
    metrics: [{ name: HOSTILE, value: 1, unit: HOSTILE }],
    findings: [{ severity: "warning", kind: HOSTILE, message: HOSTILE, evidence: { [HOSTILE]: HOSTILE } }],
    phases: { [HOSTILE]: 1 },
    totalCycles: 1,
    error: { kind: HOSTILE, message: HOSTILE },
  };
  const createdAt = "2026-12-01T00:00:00.000Z";
  const files = buildEntries({ experiment: experiment as never, profiles: BUILTIN_PROFILE_FILES.filter((p) => p.id === "p4-northwood"), plugins: [], results: [stored], appVersion: "0.1.0", createdAt });
  files.set("manifest.json", new TextEncoder().encode(JSON.stringify(manifestFor(files, "0.1.0", createdAt))));
  const p = join(dir, "hostile.siglab");
  writeFileSync(p, zipEntries(files, createdAt));
  return p;
}

/** A plugin folder whose manifest's texts are hostile. */
function hostilePlugin(): string {
  const root = join(dir, "plugins");
  const p = join(root, "evil");
  mkdirSync(join(p, "dist"), { recursive: true });
  writeFileSync(join(p, "dist", "index.js"), "exports.createModule = (options, api) => new api.ContainerModule(() => {});\n");
  writeFileSync(join(p, "plugin.json"), JSON.stringify({ id: "evil", version: "1.0.0", apiVersion: "2.0", displayName: HOSTILE, description: HOSTILE, options: { [HOSTILE.slice(0, 3)]: { type: "boolean", default: false, description: HOSTILE } }, contributes: ["SyscallContribution"], main: "dist/index.js" }));
  return root;
}

const LONG = 240_000;

describe.concurrent("foreign text is escaped before it reaches a terminal or a CSV file", () => {
  it("run: a workload's error message, metric name, unit, log line and name (text and --json)", async () => {
    const rs = await Promise.all([
      runSiglab(["run", workloadFile, "--sweep", "mode=0,1,2,3"]),
      runSiglab(["run", workloadFile, "--sweep", "mode=0,1,2,3", "--json"]),
    ]);
    for (const [i, r] of rs.entries()) {
      expect(r.code, r.err).toBe(1); // the runs that throw fail; nothing crashes
      expectClean(`run ${i ? "--json" : "(text)"}`, r);
      expect(r.out).not.toMatch(/^identical/m);
    }
    // the text shows the message, escaped, inside its own ERROR line
    expect(rs[0]!.out).toMatch(/ERROR \(workload\): .*\\u001b\[2K\\r\\u001b\[1A\\nidentical: all 1 runs/);
    // --json is still JSON, with the same strings
    const json = JSON.parse(rs[1]!.out) as { runs: RunResult[] };
    expect(json.runs[0]!.error!.message).toContain("identical: all 1 runs");
  }, LONG);

  it("bundle info, verify and run: a bundle cannot erase the FAILED line or fake 'identical'", async () => {
    const bundle = hostileBundle();
    const [info, verify, rerun, csv] = await Promise.all([
      runSiglab(["bundle", "info", bundle]),
      runSiglab(["bundle", "verify", bundle]),
      runSiglab(["bundle", "run", bundle]),
      runSiglab(["export", "csv", bundle]),
    ]);
    for (const [what, r] of [["bundle info", info], ["bundle verify", verify], ["bundle run", rerun], ["export csv", csv]] as const) {
      expectClean(what, r!);
      expect(r!.out + r!.err, what).not.toMatch(/^identical/m);
    }
    expect(info!.code, info!.err).toBe(0);
    expect(verify!.code).toBe(1);
    expect(verify!.out).toMatch(/^run 1\/1 .*: FAILED \(workload: /m);
    expect(verify!.out).toMatch(/^DIFFERENT: /m);
    expect(csv!.code, csv!.err).toBe(0);
    expect(csv!.out).toContain("\\u001b]52;c;cHduZWQ=\\u0007");
    expect(csv!.out).toMatch(/\r\n/); // CSV's own line ends stay
  }, LONG);

  it("a CSV file written from a bundle holds no control characters", async () => {
    const bundle = hostileBundle();
    const out = join(dir, "results.csv");
    const r = await runSiglab(["export", "csv", bundle, "-o", out]);
    expect(r.code, r.err).toBe(0);
    // CSV's own line ends are CRLF: a carriage return elsewhere would be foreign
    expect(unsafeIn(readFileSync(out, "utf8").replace(/\r\n/g, "\n"))).toEqual([]);
  }, LONG);

  it("plugins list and info: a plugin's name, description and options", async () => {
    const plugins = hostilePlugin();
    const rs = await Promise.all([runSiglab(["plugins", "list", "--plugin-dir", plugins]), runSiglab(["plugins", "info", "evil", "--plugin-dir", plugins])]);
    for (const [i, r] of rs.entries()) {
      expect(r.code, r.err).toBe(0);
      expectClean(i ? "plugins info" : "plugins list", r);
      expect(r.out).not.toMatch(/^identical/m);
    }
  }, LONG);
});
