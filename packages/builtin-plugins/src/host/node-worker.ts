/**
 * Entry of the sandbox worker thread on Node: lock the realm down first, then load the simulator
 * and the built-in plugins, then serve the supervisor. Bundled by NodeExecutionHost.
 */
import "@siglab/core/host/lockdown";
import { startNodeSandboxWorker } from "@siglab/core/host/node/worker";
import { BUILTIN_PLUGINS } from "../index.js";

startNodeSandboxWorker(BUILTIN_PLUGINS);
