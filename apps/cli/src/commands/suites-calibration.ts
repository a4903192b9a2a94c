/**
 * `siglab suite calibration [--json]`: every calibration figure's workload on its CPU, measured vs
 * simulated, and each fit group's shipped scale of its sourced starting values (exit 1 if a
 * non-pending target is missed or a group is beyond ×0.67–×1.5); with --loo each target is also
 * predicted by a fit that left it out (its groups at their starting values): `looErrorPercent` on
 * every row, and exit 1 if one is beyond ±25%. `siglab suite predictions [--json]`: the
 * simulator's figures for results kept for validation (no fitting, no assertions).
 * Both run the shipped workloads in the execution host (the same sandbox as every other run), with
 * the suite command's limits (--max-seconds, --max-steps, ...).
 */
import { unitText } from "../format.js";
import { BUILTIN_PROFILE_FILES } from "@siglab/cpu-profiles";
import { calibrationTargets, closeCalibrationHost, configureCalibrationHost, formatPredictions, formatSuite, LOO_LIMIT_PERCENT, missedRows, runCalibrationSuite, runPredictions, SCALE_BAND, shippedGroupScales } from "@siglab/calibration";
import { hostLimitsFrom } from "../run/limits.js";
import { inOrderWithProgress } from "../run/progress.js";
import { registerSuite, type SuiteRunner } from "./suite.js";

/** Runs a calibration suite with its own host, configured like the command's, and stops it afterwards. */
function withCalibrationHost(run: SuiteRunner): SuiteRunner {
  return async (name, o) => {
    try {
      configureCalibrationHost({ limits: hostLimitsFrom(o), verbose: o["verbose"] === true });
      return await run(name, o);
    } finally {
      closeCalibrationHost(); // its process would keep the CLI alive
    }
  };
}

async function calibrationSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const loo = o["loo"] === true;
  // target by target (the same rows as all at once), so that a progress line can follow them
  const rows = (await inOrderWithProgress(calibrationTargets(), (t) => t.id, (t) => runCalibrationSuite({ loo, targets: [t] }), "calibration target")).flat();
  const missed = missedRows(rows);
  // the fit must not hide a missing mechanism: every group within the band, every figure's
  // leave-one-out error within the limit (packages/calibration/src/rules.ts)
  const groups = shippedGroupScales(BUILTIN_PROFILE_FILES);
  const outOfBand = groups.filter((g) => !g.inBand);
  const looOver = loo ? rows.filter((r) => r.looErrorPercent != null && r.status !== "info" && Math.abs(r.looErrorPercent) > LOO_LIMIT_PERCENT) : [];
  if (o["json"]) process.stdout.write(JSON.stringify({ targets: rows, missed: missed.map((r) => r.id), groups, outOfBand: outOfBand.map((g) => g.id), looOver: looOver.map((r) => r.id) }, null, 2) + "\n");
  else {
    console.log(`SigLab calibration targets (calibration/figures.json) on the shipped profiles${loo ? ", with leave-one-out errors" : ""}\n`);
    console.log(unitText(formatSuite(rows)));
    const band = `×${SCALE_BAND[0].toFixed(2)}–×${SCALE_BAND[1]}`;
    console.log(`\n  fit group${" ".repeat(12)}profile          scale of the sourced start (band ${band})`);
    for (const g of groups) console.log(`  ${g.id.padEnd(21)}${g.profile.padEnd(17)}×${g.scale.toFixed(3)}${g.inBand ? "" : "  OUT OF BAND: a missing mechanism"}`);
    const pending = rows.filter((r) => r.status === "pending").length;
    console.log(`\n${rows.length - pending} run, ${pending} pending, ${missed.length} missed${missed.length ? `: ${missed.map((r) => r.id).join(", ")}` : ""}; ${outOfBand.length} group(s) out of band${loo ? `; ${looOver.length} leave-one-out error(s) beyond ±${LOO_LIMIT_PERCENT}%${looOver.length ? `: ${looOver.map((r) => r.id).join(", ")}` : ""}` : ""}`);
  }
  return missed.length || outOfBand.length || looOver.length ? 1 : 0;
}

async function predictionsSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const predictions = await runPredictions();
  if (o["json"]) process.stdout.write(JSON.stringify({ predictions }, null, 2) + "\n");
  else {
    console.log("SigLab predictions (not fitted to; kept to validate the model elsewhere)\n");
    console.log(unitText(formatPredictions(predictions)));
  }
  return 0;
}

export function registerCalibrationSuites(): void {
  registerSuite("calibration", withCalibrationHost(calibrationSuite), { about: "measured vs simulated for every calibration figure, with targets (exit 1 on a miss); --loo adds leave-one-out" });
  registerSuite("predictions", withCalibrationHost(predictionsSuite), { about: "the simulator's unfitted figures for results kept to validate it" });
}
