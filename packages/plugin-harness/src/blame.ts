/**
 * Whose code is running: the harness's worker marks plugin code as the CLI's sandbox does (the
 * core's host/mark.ts), so a run over its host-time budget names the plugin and the hook.
 */
export { markedPlugin, type Mark } from "@siglab/core/host";
