/**
 * The worker thread of runInWorker: loads the plugins it was given by reference, marks their code
 * (blame.ts) in the memory the parent shares, runs the workload in process and posts the result.
 * The parent stops it when the run overruns its host-time budget.
 */
import { parentPort, workerData } from "node:worker_threads";
import * as api from "@siglab/plugin-api";
import type { HarnessOptions, PluginModule } from "@siglab/plugin-api";
import { markedPlugin, type Mark } from "./blame.js";
import { withPluginSourceLine } from "@siglab/core/host";
import { runWorkload, setPluginOrigin } from "./in-process.js";
import { failedRun } from "./options.js";
import { folderSource, loadPluginRef, pathOf, PluginLoadError, type PluginRef } from "./plugin-refs.js";

/** What the parent sends: the run's options (plugins by reference) and the shared mark. */
export interface WorkerRequest {
  options: Omit<HarnessOptions, "plugins">;
  plugins: PluginRef[];
  /** [0]: the label of the plugin code running now, + 1 (0: none) */
  mark: Int32Array;
}

/** What the worker posts: that it is loaded, each label's text (in label order), then the result. */
export type WorkerMessage = { type: "started" } | { type: "label"; text: string } | { type: "result"; result: ReturnType<typeof runWorkload> };

const port = parentPort!;
const request = workerData as WorkerRequest;
const labels = new Map<string, number>();
const mark: Mark = {
  enter(label) {
    const previous = Atomics.load(request.mark, 0);
    Atomics.store(request.mark, 0, label + 1);
    return previous;
  },
  leave(previous) {
    Atomics.store(request.mark, 0, previous);
  },
  label(text) {
    let n = labels.get(text);
    if (n === undefined) {
      labels.set(text, (n = labels.size));
      port.postMessage({ type: "label", text } satisfies WorkerMessage);
    }
    return n;
  },
};

async function run(): Promise<ReturnType<typeof runWorkload>> {
  const plugins: PluginModule[] = [];
  // the folders' built code and source maps: an error in a plugin's code names its source line
  const sources: Parameters<typeof withPluginSourceLine>[1][number][] = [];
  for (const ref of request.plugins) {
    const where = "dir" in ref ? String(ref.dir) : String(ref.module);
    const previous = mark.enter(mark.label(`the plugin in ${where} (loading its code)`));
    try {
      const marked = markedPlugin(await loadPluginRef(ref, api), mark, api);
      if ("dir" in ref) {
        const dir = pathOf(ref.dir);
        setPluginOrigin(marked, dir);
        sources.push(folderSource(dir));
      }
      plugins.push(marked);
    } catch (e) {
      const message = e instanceof PluginLoadError ? e.message : `the plugin in ${where} threw while loading: ${(e as Error)?.message ?? String(e)}`;
      return failedRun(request.options as HarnessOptions, { kind: "plugin", message });
    } finally {
      mark.leave(previous);
    }
  }
  return withPluginSourceLine(runWorkload({ ...request.options, plugins } as HarnessOptions), sources);
}

// the simulator is loaded: the run's host time starts now
port.postMessage({ type: "started" } satisfies WorkerMessage);
port.postMessage({ type: "result", result: await run() } satisfies WorkerMessage);
