import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const BIN = inject("siglabBin");
function siglab(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", timeout: 240_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** The README's headline command (the line after its figure), its words */
const README_COMMAND = /^pnpm siglab (summary .*)$/m.exec(readFileSync(join(ROOT, "README.md"), "utf8"))![1]!.split(/\s+/);
/** …without its outputs: the tests name their own */
const HEADLINE = README_COMMAND.filter((a, i) => !["--plot", "--plot-data", "--force"].includes(a) && !["--plot", "--plot-data"].includes(README_COMMAND[i - 1]!));
const outputOf = (flag: string): string => README_COMMAND[README_COMMAND.indexOf(flag) + 1]!;

describe("siglab summary --plot", () => {
  const dir = mkdtempSync(join(tmpdir(), "siglab-summary-"));
  const svg = join(dir, "headline.svg");
  const csv = join(dir, "headline.csv");
  let first: ReturnType<typeof siglab>;
  beforeAll(() => {
    first = siglab([...HEADLINE, "--plot", svg, "--plot-data", csv]);
  }, 240_000);

  it("prints the table and writes the chart (SVG at slide size) and the data behind it", () => {
    expect(first.err).toBe("");
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/P4 2\.2 GHz · baseline .*3\.\d\d \(measured 3\.09\)/);
    expect(first.out).toMatch(/P4 2\.2 GHz · sa-nofp\(forceAll=true\)/);
    expect(first.out).toContain(`wrote ${svg}`);
    const text = readFileSync(svg, "utf8");
    expect(text).toMatch(/^<svg [^>]*viewBox="0 0 1920 1080"/);
    expect(text).toContain("latency (µs)");
    expect(text).toContain('data-palette="Okabe–Ito"');
    expect(text).toContain("measured on a real machine (hatched)");
    const rows = readFileSync(csv, "utf8").trim().split("\n");
    expect(rows[0]).toBe("cpu,stack,benchmark,example,kind,us,source");
    // 5 benchmarks × 2 stacks simulated, and the two calibration figures measured on that P4
    expect(rows.filter((r) => r.includes(",simulated,"))).toHaveLength(10);
    expect(rows.filter((r) => r.includes(",measured,")).map((r) => r.split(",")[3]).sort()).toEqual(["lat_ctx", "lat_sig_catch"]);
    // SA_NOFP (forced) shortens the signal round trip: its bar is lower than the baseline's
    const sig = rows.filter((r) => r.includes(",lat_sig_catch,simulated,")).map((r) => Number(r.split(",")[5]));
    expect(sig[1]!).toBeLessThan(sig[0]! * 0.8);
  });

  it("draws the README's headline figure byte for byte as committed (docs/img), and its data", () => {
    expect(outputOf("--plot")).toMatch(/^docs\/img\/.*\.svg$/);
    expect(readFileSync(svg, "utf8")).toBe(readFileSync(join(ROOT, outputOf("--plot")), "utf8"));
    expect(readFileSync(csv, "utf8")).toBe(readFileSync(join(ROOT, outputOf("--plot-data")), "utf8"));
    expect(readFileSync(svg, "utf8")).toContain(`Drawn by: siglab ${HEADLINE.join(" ")}`);
  });

  it("never replaces an existing file without --force, and refuses before running anything", () => {
    const before = readFileSync(svg, "utf8");
    writeFileSync(csv, "mine\n");
    const r = siglab([...HEADLINE, "--plot", svg]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/headline\.svg: already exists; use --force to replace it/);
    expect(r.out).toBe(""); // no table: no run started
    expect(readFileSync(svg, "utf8")).toBe(before);
    const d = siglab([...HEADLINE, "--plot-data", csv]);
    expect(d.code).toBe(2);
    expect(readFileSync(csv, "utf8")).toBe("mine\n");
  });

  it("refuses a chart that is not .svg, one file for both outputs, and run's options it has no use for", () => {
    const png = join(dir, "x.png");
    const a = siglab(["summary", "--plot", png]);
    expect(a.code).toBe(2);
    expect(a.err).toMatch(/--plot .*x\.png: the chart is SVG/);
    expect(existsSync(png)).toBe(false);
    const same = join(dir, "same.svg");
    const b = siglab(["summary", "--plot", same, "--plot-data", same]);
    expect(b.code).toBe(2);
    expect(b.err).toMatch(/name the same file/);
    const c = siglab(["summary", "--sweep", "iterations=1,2"]);
    expect(c.code).toBe(2);
    expect(c.err).toMatch(/Unknown option `--sweep`/); // the examples' own parameters: no sweep
  });
});
