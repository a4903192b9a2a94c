#!/usr/bin/env node
/** The `siglab` command line: runs, suites, bundles, and serving the UI to a browser. */
import "./cwd.js"; // first: relative paths are the folder the command was typed in
import "./run/prestart.js"; // then: a command that will simulate starts its host while the rest loads
import { guardOutput, oneLine } from "./terminal.js";
import cac from "cac";
import { registerRunCommand, resolveRunArgs, addRunOptions } from "./commands/run.js";
import { registerListCommand } from "./commands/list.js";
import { registerPluginsCommands } from "./commands/plugins.js";
import { registerSuiteCommand } from "./commands/suite.js";
import { registerCalibrationSuites } from "./commands/suites-calibration.js";
import { registerUmlSuite } from "./commands/suite-uml.js";
import { registerHostSuite } from "./commands/suite-host.js";
import { registerCalibrateCommand } from "./commands/calibrate.js";
import { registerBundleCommands } from "./commands/bundle.js";
import { registerServeCommand } from "./commands/serve.js";
import { registerProbeCommand } from "./commands/probe.js";
import { registerCacheCommand } from "./commands/cache.js";
import { registerSummaryCommand } from "./commands/summary.js";
import { configureHost, runInSandbox, stopSandbox } from "./run/host.js";
import { hostLimitsFrom } from "./run/limits.js";
import { setProgressQuiet } from "./run/progress.js";
import { didYouMean } from "./suggest.js";
import { DEFAULT_HOST_LIMITS } from "@siglab/core/host";

// no control sequence from a workload, bundle or plugin reaches the terminal, whatever prints it
guardOutput();

// A bug in the CLI itself: one line, the stack only with --verbose (never a raw trace by default).
const verbose = process.argv.includes("--verbose");
const crash = (e: unknown): void => {
  console.error(`siglab: internal error: ${oneLine(String((e as Error)?.message ?? e))}${verbose ? `\n${(e as Error)?.stack ?? ""}` : " (run with --verbose for details)"}`);
  stopSandbox();
  process.exit(70);
};
process.on("uncaughtException", crash);
process.on("unhandledRejection", crash);

const cli = cac("siglab");
registerRunCommand(cli);
registerListCommand(cli);
registerPluginsCommands(cli);
registerCalibrationSuites();
registerUmlSuite();
registerHostSuite();
registerSuiteCommand(cli);
registerCalibrateCommand(cli);
registerBundleCommands(cli, {
  runInSandbox: (spec, opts) => runInSandbox(spec, opts ?? {}),
  resolveRunArgs,
  addRunOptions,
  configure: (o) => configureHost({ limits: hostLimitsFrom(o), verbose: o["verbose"] === true }),
  maxRuns: (o) => hostLimitsFrom(o).maxRuns,
  runLimitMs: (o) => hostLimitsFrom(o).runMs ?? DEFAULT_HOST_LIMITS.runMs,
});
registerServeCommand(cli);
registerProbeCommand(cli);
registerCacheCommand(cli);
registerSummaryCommand(cli);
cli.option("--quiet", "no progress on stderr (also SIGLAB_QUIET=1)");
cli.help();
cli.version("0.1.0");

try {
  cli.parse(process.argv, { run: false });
  setProgressQuiet(cli.options["quiet"] === true);
  const helped = cli.options["help"] === true || cli.options["h"] === true;
  if (!cli.matchedCommand && cli.args.length && !helped) {
    const commands = [...new Set(cli.commands.map((c) => c.name.split(" ")[0]!).filter(Boolean))];
    console.error(`siglab: unknown command '${cli.args[0]}' (${didYouMean(String(cli.args[0]), commands)}try --help)`);
    process.exitCode = 2;
  } else if (!cli.matchedCommand && !cli.options["help"] && !cli.options["version"]) {
    cli.outputHelp();
  } else {
    await cli.runMatchedCommand();
  }
  stopSandbox(); // the sandbox process would keep the CLI alive
} catch (e) {
  console.error(`siglab: ${oneLine(String((e as Error)?.message ?? e))}${verbose ? `\n${(e as Error).stack ?? ""}` : ""}`);
  process.exitCode = 2;
  stopSandbox();
}
