// `calibrate --check` compares the shipped files with a fresh fit; here on one cheap group, with
// the files read through a stub so nothing on disk is touched.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_SOURCES } from "@siglab/cpu-profiles";
import { candidateProfiles, closeCalibrationHost, fit, runCalibrationSuite, type FitResult, type SuiteRow } from "../src/index.js";
import { plannedWrites, profileFilePath, REPORT_PATH, staleness } from "../src/node.js";

afterAll(closeCalibrationHost);

describe("calibrate --check", () => {
  const p3 = profileFilePath("p6-coppermine");
  const shipped = readFileSync(p3, "utf8");
  let r: FitResult;
  let rows: SuiteRow[];
  // the files as a previous `calibrate` with this fit would have left them
  let fresh: Map<string, string>;
  beforeAll(async () => {
    r = await fit({ only: ["p3-syscall-gate"] });
    rows = await runCalibrationSuite({ profiles: candidateProfiles(BUILTIN_PROFILE_SOURCES, r.values), targets: [] });
    fresh = new Map(plannedWrites(r, rows, (p) => (p === p3 ? shipped : null)).map((w) => [w.path, w.after]));
  });

  it("finds nothing stale when the files hold the fit", () => {
    const writes = plannedWrites(r, rows, (p) => fresh.get(p) ?? null);
    expect(staleness(writes)).toEqual([]);
  });

  it("names the entry whose value differs from a fresh fit", () => {
    const json = JSON.parse(fresh.get(p3)!);
    const fitted = json.costs.int_gate.cycles as number;
    json.costs.int_gate.cycles = fitted + 7;
    const stale = JSON.stringify(json, null, 2);
    const writes = plannedWrites(r, rows, (p) => (p === p3 ? stale : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual([`packages/cpu-profiles/profiles/p6-coppermine.json: /costs/int_gate/cycles: shipped ${fitted + 7}, a fresh fit gives ${fitted}`]);
  });

  it("names a stale or missing report", () => {
    const writes = plannedWrites(r, rows, (p) => (p === REPORT_PATH ? null : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual(["packages/calibration/report/calibration.json: missing"]);
  });
});
