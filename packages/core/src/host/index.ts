/**
 * @siglab/core/host: the execution host's contract, the same in every environment (no DOM, no
 * Node): the messages between a supervisor and its sandbox worker, the host's limits, and the
 * Supervisor that runs requests one at a time under budgets. The environments' own parts are
 * ./host/node, ./host/browser and their workers; ./host/lockdown is imported first in a worker.
 */
export * from "./protocol.js";
export * from "./limits.js";
export * from "./supervisor.js";
export { MODULE_WRAPPER_PREFIX, withPluginSourceLine } from "./plugin-source-line.js";
export { markedPlugin, type Mark } from "./mark.js";
