/** The Node execution host with SigLab's built-in plugins in its sandbox (see @siglab/core host/). */
import { fileURLToPath } from "node:url";
import { bundle, NodeExecutionHost, type NodeHostOptions } from "@siglab/core/host/node";

export const NODE_WORKER_ENTRY = fileURLToPath(new URL("./node-worker.ts", import.meta.url));

export function createNodeHost(opts: Omit<NodeHostOptions, "workerEntry">): NodeExecutionHost {
  return new NodeExecutionHost({ ...opts, workerEntry: NODE_WORKER_ENTRY });
}

/** The files the Node execution host runs (built from the sources when they changed): the simulator's code. */
export async function nodeHostCode(): Promise<string[]> {
  const b = await bundle(NODE_WORKER_ENTRY);
  return [b.child, b.worker];
}

export { NodeExecutionHost };
