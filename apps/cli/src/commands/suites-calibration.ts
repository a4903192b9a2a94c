/**
 * `siglab suite calibration [--json]`: every calibration figure's workload on its CPU, measured vs
 * simulated (exit 1 if a non-pending target is missed); with --loo each target is also predicted by
 * a fit that left it out (its groups at their starting values): `looErrorPercent` on every row. `siglab suite predictions [--json]`: the
 * simulator's figures for results kept for validation (no fitting, no assertions).
 * Both run the shipped workloads in the execution host (the same sandbox as every other run), with
 * the suite command's limits (--max-seconds, --max-steps, ...).
 */
import { closeCalibrationHost, configureCalibrationHost, formatPredictions, formatSuite, missedRows, runCalibrationSuite, runPredictions } from "@siglab/calibration";
import { hostLimitsFrom } from "../run/limits.js";
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
  const rows = await runCalibrationSuite({ loo });
  const missed = missedRows(rows);
  if (o["json"]) process.stdout.write(JSON.stringify({ targets: rows, missed: missed.map((r) => r.id) }, null, 2) + "\n");
  else {
    console.log(`SigLab calibration targets (calibration/figures.json) on the shipped profiles${loo ? ", with leave-one-out errors" : ""}\n`);
    console.log(formatSuite(rows));
    const pending = rows.filter((r) => r.status === "pending").length;
    console.log(`\n${rows.length - pending} run, ${pending} pending, ${missed.length} missed${missed.length ? `: ${missed.map((r) => r.id).join(", ")}` : ""}`);
  }
  return missed.length ? 1 : 0;
}

async function predictionsSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const predictions = await runPredictions();
  if (o["json"]) process.stdout.write(JSON.stringify({ predictions }, null, 2) + "\n");
  else {
    console.log("SigLab predictions (not fitted to; kept to validate the model elsewhere)\n");
    console.log(formatPredictions(predictions));
  }
  return 0;
}

export function registerCalibrationSuites(): void {
  registerSuite("calibration", withCalibrationHost(calibrationSuite));
  registerSuite("predictions", withCalibrationHost(predictionsSuite));
}
