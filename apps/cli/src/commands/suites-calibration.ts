/**
 * `siglab suite calibration [--json]`: every calibration figure's workload on its CPU, measured vs
 * simulated (exit 1 if a non-pending target is missed). `siglab suite predictions [--json]`: the
 * simulator's figures for results kept for validation (no fitting, no assertions).
 * Both run the shipped workloads in-process: trusted built-in code.
 */
import { formatPredictions, formatSuite, missedRows, runCalibrationSuite, runPredictions } from "@siglab/calibration";
import { registerSuite } from "./suite.js";

async function calibrationSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const rows = runCalibrationSuite();
  const missed = missedRows(rows);
  if (o["json"]) process.stdout.write(JSON.stringify({ targets: rows, missed: missed.map((r) => r.id) }, null, 2) + "\n");
  else {
    console.log("SigLab calibration targets (calibration/figures.json) on the shipped profiles\n");
    console.log(formatSuite(rows));
    const pending = rows.filter((r) => r.status === "pending").length;
    console.log(`\n${rows.length - pending} run, ${pending} pending, ${missed.length} missed${missed.length ? `: ${missed.map((r) => r.id).join(", ")}` : ""}`);
  }
  return missed.length ? 1 : 0;
}

async function predictionsSuite(_name: string, o: Record<string, unknown>): Promise<number> {
  const predictions = runPredictions();
  if (o["json"]) process.stdout.write(JSON.stringify({ predictions }, null, 2) + "\n");
  else {
    console.log("SigLab predictions (not fitted to; kept to validate the model elsewhere)\n");
    console.log(formatPredictions(predictions));
  }
  return 0;
}

export function registerCalibrationSuites(): void {
  registerSuite("calibration", calibrationSuite);
  registerSuite("predictions", predictionsSuite);
}
