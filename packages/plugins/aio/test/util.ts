/** Shared helpers for the aio plugin's tests: run a source or an aio_* example with the plugin available. */
import { runSource, metric, pathCount, type RunOpts } from "../../../core/test/harness.js";
import type { RunResult } from "@siglab/core";
import aio, { AIO_EXAMPLES } from "../src/index.js";

export { metric, pathCount, aio };

export const CPUS = [
  { cpu: "p4-northwood", mhz: 2200 },
  { cpu: "p6-coppermine", mhz: 1000 },
] as const;

/** Run with the aio plugin loaded and in the stack (options as given). */
export function withAio(source: string, o: RunOpts & { aioOptions?: Record<string, string | number | boolean> } = {}): RunResult {
  return runSource(source, { ...o, plugins: [aio], variants: [{ id: "aio", options: o.aioOptions ?? {} }] });
}

/** Run an aio_* example; the plugin is in the stack only when `stack` is true. */
export function runAioExample(id: string, o: RunOpts & { stack?: boolean } = {}): RunResult {
  const e = AIO_EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`no aio example ${id}`);
  return runSource(e.source, { ...o, plugins: [aio], variants: o.stack ? [{ id: "aio" }] : (o.variants ?? []) }, e.file);
}

/** A workload body with the AIO numbers in scope. */
export const W = (body: string, params = "{}") => `
import { workload, SIGIO, SIGRTMIN, SA_SIGINFO, F_SETOWN, F_SETFL, F_SETSIG, O_ASYNC } from "siglab";
const io_setup = 245, io_destroy = 246, io_getevents = 247, io_submit = 248, io_cancel = 249;
export default workload({ name: "t", params: ${params}, *main(t, p) { ${body} } });`;
