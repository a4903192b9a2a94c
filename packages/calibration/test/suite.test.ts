// The simulator is deterministic, so the calibration suite on the shipped profiles is a test.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { builtinPluginIds, calibrationTargets, closeCalibrationHost, missedRows, runCalibrationSuite, type SuiteRow } from "../src/index.js";

afterAll(closeCalibrationHost);

/**
 * Targets the fitted parameters cannot reach with the model as it is (see docs/calibration.md):
 * the test fails when one of them starts to pass, so this list stays honest.
 */
const KNOWN_MODEL_GAPS: Record<string, string> = {
  "ngpt-vs-linuxthreads-yield":
    "since the cache model (issue 29) the LinuxThreads side pays what 2.4's schedule() costs with ten runnable threads: goodness() reads every task's scheduling line, and all ten task_structs sit at the same offset of an 8 KB-aligned task_union, in the same cache set; the NGPT side's own memory (Pth's thread control blocks, stacks and queues) is not modelled, so the ratio comes out at 4.7 against 6.04 (docs/calibration.md)",
};

describe("calibration suite on the shipped profiles", () => {
  let rows: SuiteRow[];
  beforeAll(async () => {
    rows = await runCalibrationSuite();
  });

  it("has a row for every calibration target, pending exactly when a needed plugin is not built", () => {
    const available = builtinPluginIds();
    expect(rows.map((r) => r.id)).toEqual(calibrationTargets().map((t) => t.id));
    for (const t of calibrationTargets()) {
      const row = rows.find((r) => r.id === t.id)!;
      const missing = t.requires.filter((p) => !available.includes(p));
      expect(row.status === "pending", t.id).toBe(missing.length > 0);
      if (missing.length) expect(row.note).toBe(`pending (plugin ${missing.join(", ")} not built)`);
      else expect(row.simulated).not.toBeNull();
    }
  });

  it("meets every non-pending target except the known model gaps, which still miss", () => {
    const missed = missedRows(rows).map((r) => r.id).sort();
    const gaps = Object.keys(KNOWN_MODEL_GAPS).filter((id) => rows.find((r) => r.id === id)?.status !== "pending").sort();
    expect(missed).toEqual(gaps);
  });

  it("qualitative figures are reported, not judged", () => {
    for (const r of rows.filter((x) => x.id.startsWith("fxsr-signal-tripling"))) {
      expect(r.status).toBe("info");
      expect(r.simulated!).toBeGreaterThan(1); // the FXSR frame costs more than the alternatives
    }
  });
});
