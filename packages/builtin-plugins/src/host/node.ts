/** The Node execution host with SigLab's built-in plugins in its sandbox (see @siglab/core host/). */
import { fileURLToPath } from "node:url";
import { NodeExecutionHost, type NodeHostOptions } from "@siglab/core/host/node";

export const NODE_WORKER_ENTRY = fileURLToPath(new URL("./node-worker.ts", import.meta.url));

export function createNodeHost(opts: Omit<NodeHostOptions, "workerEntry">): NodeExecutionHost {
  return new NodeExecutionHost({ ...opts, workerEntry: NODE_WORKER_ENTRY });
}

export { NodeExecutionHost };
