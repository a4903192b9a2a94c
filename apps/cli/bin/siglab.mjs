#!/usr/bin/env node
/**
 * The `siglab` command (the package's bin; `pnpm siglab`): runs the built CLI bundle
 * (dist/siglab.mjs), rebuilt first when any file it was built from changed (scripts/fresh.mjs:
 * a stat of each, ~1 ms), so it is never stale and nothing is transpiled at run time.
 */
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { freshCli } from "../scripts/fresh.mjs";

let bundle;
try {
  bundle = await freshCli({ onBuild: (why) => process.stderr.isTTY && process.stderr.write(`siglab: ${why}: rebuilding the CLI (about a second)\n`) });
} catch (e) {
  process.stderr.write(`siglab: could not build the CLI from its sources: ${e?.message ?? e}\n`);
  process.exit(70);
}
// a command that will simulate starts its execution host now, while the rest of the CLI loads
await import(pathToFileURL(join(dirname(bundle), "prestart.mjs")).href);
await import(pathToFileURL(bundle).href);
