import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, inject, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");
const BIN = inject("siglabBin");
function siglab(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe("a variant that changed nothing in a run says so (issue 32, item 2)", () => {
  it("SA_NOFP on lat_sig catch without forceAll: a notice naming why and the remedy, under that run only", () => {
    const r = siglab(["run", "lat_sig_catch", "--baseline", "--variant", "sa-nofp", "--param", "iterations=200"]);
    expect(r.code).toBe(0);
    const [baseline, nofp] = r.out.split(/^== /m).filter(Boolean);
    expect(baseline).not.toMatch(/notice:/);
    expect(nofp).toMatch(/^ {3}notice: variant sa-nofp had no effect in this run: none of the kernel paths it contributes or changes ran \(no handler asked for SA_NOFP; set forceAll=true to apply it to every handler\)$/m);
  });

  it("no notice once it applies (forceAll), and a run's JSON is its result, unchanged", () => {
    const forced = siglab(["run", "lat_sig_catch", "--variant", "sa-nofp:forceAll=true", "--param", "iterations=200"]);
    expect(forced.code).toBe(0);
    expect(forced.out).not.toMatch(/notice:/);
    const json = siglab(["run", "lat_sig_catch", "--variant", "sa-nofp", "--param", "iterations=200", "--json"]);
    expect(json.code).toBe(0);
    expect(json.out).not.toMatch(/no effect/);
  });
});
