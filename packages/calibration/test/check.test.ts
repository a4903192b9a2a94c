// `calibrate` writes the generated overlays (profiles/fitted/<id>.json) and the report, never the
// hand-written profiles; `calibrate --check` compares the shipped overlays with a fresh fit. Here
// on one cheap group, with the files read through a stub or copied to a temporary folder.
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, unlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_SOURCES } from "@siglab/cpu-profiles";
import { candidateProfiles, closeCalibrationHost, fit, runCalibrationSuite, type FitResult, type SuiteRow } from "../src/index.js";
import { overlayFilePath, plannedWrites, PROFILES_DIR, profileFilePath, REPORT_PATH, staleness, writePlanned } from "../src/node.js";

afterAll(closeCalibrationHost);

describe("calibrate and calibrate --check", () => {
  const p3 = overlayFilePath("p6-coppermine");
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

  it("plans to write only overlays and the report, never a hand-written profile", () => {
    const writes = plannedWrites(r, rows, (p) => fresh.get(p) ?? null);
    expect(writes.map((w) => w.file)).toEqual(["packages/cpu-profiles/profiles/fitted/p6-coppermine.json", "packages/calibration/report/calibration.json"]);
  });

  it("finds nothing stale when the files hold the fit", () => {
    const writes = plannedWrites(r, rows, (p) => fresh.get(p) ?? null);
    expect(staleness(writes)).toEqual([]);
  });

  it("names the overlay entry whose value differs from a fresh fit", () => {
    const json = JSON.parse(fresh.get(p3)!);
    const fitted = json.costs.int_gate.cycles as number;
    json.costs.int_gate.cycles = fitted + 7;
    const stale = JSON.stringify(json, null, 2);
    const writes = plannedWrites(r, rows, (p) => (p === p3 ? stale : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual([`packages/cpu-profiles/profiles/fitted/p6-coppermine.json: /costs/int_gate/cycles: shipped ${fitted + 7}, a fresh fit gives ${fitted}`]);
  });

  it("detects an overlay fitted from another starting value (the hand-written start changed since)", () => {
    const json = JSON.parse(fresh.get(p3)!);
    const start = json.costs.iret_user.start as number;
    json.costs.iret_user.start = start - 3;
    const stale = JSON.stringify(json, null, 2);
    const writes = plannedWrites(r, rows, (p) => (p === p3 ? stale : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual([`packages/cpu-profiles/profiles/fitted/p6-coppermine.json: /costs/iret_user/start: fitted from starting value ${start - 3}, the profile now starts at ${start}`]);
  });

  it("names a missing overlay or report", () => {
    let writes = plannedWrites(r, rows, (p) => (p === REPORT_PATH ? null : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual(["packages/calibration/report/calibration.json: missing"]);
    // a missing overlay is written from the fitted group alone (the pending groups had no entries to keep)
    writes = plannedWrites(r, rows, (p) => (p === p3 ? null : fresh.get(p) ?? null));
    expect(staleness(writes)).toEqual(["packages/cpu-profiles/profiles/fitted/p6-coppermine.json: missing"]);
  });

  it("writes the overlay and leaves the hand-written profile byte-identical", () => {
    const dir = mkdtempSync(join(tmpdir(), "siglab-calibrate-"));
    try {
      cpSync(PROFILES_DIR, join(dir, "profiles"), { recursive: true });
      const profiles = join(dir, "profiles");
      const handBefore = new Map(readdirSync(profiles).filter((n) => n.endsWith(".json")).map((n) => [n, readFileSync(join(profiles, n), "utf8")]));
      expect(handBefore.get("p6-coppermine.json")).toBe(readFileSync(profileFilePath("p6-coppermine"), "utf8"));
      unlinkSync(overlayFilePath("p6-coppermine", profiles));
      const reportPath = join(dir, "calibration.json");
      const writes = plannedWrites(r, rows, undefined, { profilesDir: profiles, reportPath });
      const changed = writePlanned(writes);
      expect(changed.map((f) => f.replace(/^.*?(profiles\/fitted\/|calibration\.json)/, "$1"))).toEqual(["profiles/fitted/p6-coppermine.json", "calibration.json"]);
      for (const [n, text] of handBefore) expect(readFileSync(join(profiles, n), "utf8"), n).toBe(text);
      expect(readFileSync(overlayFilePath("p6-coppermine", profiles), "utf8")).toBe(writes[0]!.after);
      // nothing left behind but the files
      expect(readdirSync(join(profiles, "fitted")).filter((n) => n.includes(".tmp"))).toEqual([]);
      // a second run has nothing to write, and --check finds nothing stale
      const again = plannedWrites(r, rows, undefined, { profilesDir: profiles, reportPath });
      expect(writePlanned(again)).toEqual([]);
      expect(staleness(again)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
