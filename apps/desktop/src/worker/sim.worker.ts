/**
 * The simulation worker: the app's sandbox worker of core's execution host. Lockdown first (it
 * must run before anything imports the simulator), then the simulator with the built-in plugins,
 * then the sandbox runtime, which evaluates every workload and third-party plugin in a fresh
 * Compartment per run. The renderer's Supervisor terminates this worker on a budget or Cancel and
 * starts a new one. No TypeScript compiler here: requests carry transpiled `js`.
 */
import "@siglab/core/host/lockdown";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { startBrowserSandboxWorker } from "@siglab/core/host/browser/worker";

startBrowserSandboxWorker(BUILTIN_PLUGINS);
