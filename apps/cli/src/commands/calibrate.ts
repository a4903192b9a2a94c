/**
 * `siglab calibrate [--check] [--json] [--verbose]`: fits the profiles' `kind: "fitted"` costs to
 * calibration/figures.json by running the shipped workloads in the execution host (the same
 * sandbox as every other run), then writes the fitted values into the generated overlays
 * (packages/cpu-profiles/profiles/fitted/<id>.json; the hand-written profiles, whose fitted entries
 * hold the starting values, are never written) and the provenance report. --check writes nothing
 * and exits 1 if the shipped overlays or report differ from a fresh fit, or if the fit breaks the
 * calibration's rules (a group beyond ×0.67–×1.5 of its sourced starting values, a group a shipped
 * variant removes wholesale, an assumed cost on a calibrated path: packages/calibration/src/rules.ts).
 */
import { unitText } from "../format.js";
import type { CAC } from "cac";
import { BUILTIN_PROFILE_SOURCES } from "@siglab/cpu-profiles";
import { candidateProfiles, checkRules, closeCalibrationHost, fit, formatFit, formatSuite, ruleViolations, runCalibrationSuite } from "@siglab/calibration";
import { calibrationReportText, plannedWrites, staleness, writePlanned } from "@siglab/calibration/node";
import { reportCliError } from "./run.js";
import { calibrateFromProbe } from "./calibrate-from-probe.js";
import { UsageError } from "../catalog.js";

export function registerCalibrateCommand(cli: CAC): void {
  cli
    .command("calibrate", "Fit the profiles' fitted costs to calibration/figures.json and write them with provenance (profiles/fitted/<id>.json)")
    .option("--check", "fit without writing; exit 1 if the shipped fitted overlays differ from a fresh fit")
    .option("--json", "print the provenance report as JSON")
    .option("--verbose", "log every solver step to stderr")
    .option("--from-probe <file>", "fit a user profile of this machine to `siglab probe --json`'s figures (with -o; docs/modern.md)")
    .option("-o, --output <file>", "--from-probe: the profile file to write")
    .option("--id <id>", "--from-probe: the new profile's id (default my-<base profile>)")
    .option("--cpu <id[@MHz]>", "--from-probe: the built-in profile to start from (default: the one matching the probe's CPU)")
    .option("--force", "--from-probe: replace an existing output file")
    .option("--profile-file <file>", "--from-probe: a profile of your own to start from (with --cpu)")
    .option("--quick-runs", "--from-probe: short simulations (200 iterations each), to try it out")
    .action(async (o: Record<string, unknown>) => {
      try {
        if (o["fromProbe"] !== undefined) {
          process.exitCode = await calibrateFromProbe(o);
          return;
        }
        // the options that only --from-probe reads must not be ignored silently
        const probeOnly = (["output", "id", "cpu", "force", "profileFile", "quickRuns"] as const).filter((k) => o[k] !== undefined);
        if (probeOnly.length) throw new UsageError(`calibrate: ${probeOnly.map((k) => `--${k.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`).join(", ")} only go with --from-probe (calibrate alone writes the shipped fitted overlays)`);
        const log = o["verbose"] ? (l: string) => console.error(l) : undefined;
        const r = await fit(log ? { log } : {});
        const fitted = candidateProfiles(BUILTIN_PROFILE_SOURCES, r.values);
        const rows = await runCalibrationSuite({ profiles: fitted });
        const writes = plannedWrites(r, rows);
        // what a calibration may not do: hide a missing mechanism (packages/calibration/src/rules.ts)
        const broken = ruleViolations(await checkRules(r, fitted));
        if (o["json"]) process.stdout.write(calibrationReportText(r, rows));
        else {
          console.log("Free parameters (one scale per group of fitted costs):\n" + unitText(formatFit(r)));
          console.log("\nCalibration targets with the fitted costs:\n" + unitText(formatSuite(rows)));
        }
        if (broken.length) (o["json"] ? console.error : console.log)(`\nThe fit breaks the calibration's rules (a fitted constant is hiding a missing mechanism):\n  ${broken.join("\n  ")}`);
        if (o["check"]) {
          const stale = staleness(writes);
          const out = o["json"] ? console.error : console.log;
          if (broken.length) {
            out(`\ncalibrate --check: ${broken.length} rule violation(s) above`);
            process.exitCode = 1;
          } else if (stale.length) {
            out(`\ncalibrate --check: the shipped files are stale (run \`pnpm siglab calibrate\`):\n  ${stale.join("\n  ")}`);
            process.exitCode = 1;
          } else {
            out("\ncalibrate --check: the shipped fitted overlays and report match a fresh fit.");
            process.exitCode = 0;
          }
          return;
        }
        const changed = writePlanned(writes);
        const out = o["json"] ? console.error : console.log;
        out(changed.length ? `\nwrote ${changed.join(", ")}` : "\nnothing to write: the files already hold this fit");
        process.exitCode = 0;
      } catch (e) {
        reportCliError(e);
      } finally {
        closeCalibrationHost(); // its process would keep the CLI alive
      }
    });
}
