/**
 * The simulation worker: the app's sandbox worker of core's execution host. Lockdown first (it
 * must run before anything imports the simulator), then the allocation meter (every compartment
 * counts what foreign code allocates, meter-runtime.ts), then the simulator with the built-in
 * plugins, then the sandbox runtime, which evaluates every workload and third-party plugin in a
 * fresh Compartment per run. The renderer's Supervisor terminates this worker on a budget, on
 * Cancel or when the meter reports its budget exceeded, and starts a new one. No TypeScript
 * compiler here: requests carry transpiled, instrumented `js`.
 */
import "@siglab/core/host/lockdown";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { startBrowserSandboxWorker } from "@siglab/core/host/browser/worker";
import { DEFAULT_HOST_LIMITS } from "@siglab/core/host";
import { budgetFromWorkerName } from "./meter-protocol.js";
import { createAllocationMeter, installMeteredCompartments } from "./meter-runtime.js";

const scope = globalThis as unknown as { name?: string; postMessage(m: unknown): void; addEventListener(t: "message", l: () => void): void };
// captured before the sandbox shadows the worker's ways out
const postMessage = scope.postMessage.bind(scope);
const meter = createAllocationMeter(budgetFromWorkerName(scope.name, DEFAULT_HOST_LIMITS.memoryMb), (m) => postMessage(m));
installMeteredCompartments(meter.meter);
// registered before the sandbox's own listener: each request starts a new count
scope.addEventListener("message", () => meter.reset());

startBrowserSandboxWorker(BUILTIN_PLUGINS);
