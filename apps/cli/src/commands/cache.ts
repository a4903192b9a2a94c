/**
 * `siglab cache info [--json]`: where the cache folder is, how many stored results and compiled
 * workloads it holds and their size against the bound. `siglab cache clear`: deletes them (every
 * entry can be recomputed; nothing else lives there).
 */
import { didYouMean } from "../suggest.js";
import type { CAC } from "cac";
import { userCacheDir } from "@siglab/core/cache";
import { compileStore } from "../cache/compile-cache.js";
import { cliRunCache } from "../cache/results.js";
import { UsageError } from "../catalog.js";
import { reportCliError } from "./run.js";

const mib = (n: number) => `${(n / 1048576).toFixed(1)} MiB`;

export function registerCacheCommand(cli: CAC): void {
  cli
    .command("cache <action>", "The result and compile cache: info (where, how big) or clear (delete every entry)")
    .option("--json", "info: print JSON")
    .action((action: string, o: Record<string, unknown>) => {
      try {
        const parts = { results: cliRunCache().store, compile: compileStore() };
        if (action === "info") {
          const info = { dir: userCacheDir(), results: parts.results.info(), compile: parts.compile.info() };
          if (o["json"]) {
            process.stdout.write(JSON.stringify(info, null, 2) + "\n");
            return;
          }
          console.log(`cache folder: ${info.dir}`);
          console.log(`  results:  ${String(info.results.entries).padStart(6)} runs       ${mib(info.results.bytes).padStart(10)} of ${mib(info.results.maxBytes)} (least recently used go first; SIGLAB_CACHE_MAX_MB)`);
          console.log(`  compile:  ${String(info.compile.entries).padStart(6)} workloads  ${mib(info.compile.bytes).padStart(10)} of ${mib(info.compile.maxBytes)}`);
        } else if (action === "clear") {
          const runs = parts.results.clear();
          const compiled = parts.compile.clear();
          console.log(`cleared ${runs} stored run(s) and ${compiled} compiled workload(s) from ${userCacheDir()}`);
        } else {
          throw new UsageError(`unknown cache action '${action}' (${didYouMean(action, ["info", "clear"])}actions: info, clear)`);
        }
      } catch (e) {
        reportCliError(e);
      }
    });
}
