/**
 * lazy-fpu-frame: deferred FP save at signal delivery (kernel-paths.md §5.4, V2 and V3).
 * Replaces the SignalFpuPolicy; hooks #NM (and #PF in unmapped-page mode) to do the save late.
 */
import { ContainerModule, TOKENS, type CreateModule, type PluginModule } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { LazyFrameFpu, type LazyMode } from "./lazy.js";
import { LAZY_PATHS } from "./paths.js";

export { LazyFrameFpu, recordsOf, type LazyMode, type LazyRecord } from "./lazy.js";

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    const mode: LazyMode = options["mode"] === "unmapped-page" ? "unmapped-page" : "ts";
    // one instance per run: it is both the policy and the trap hooks
    const policy = new LazyFrameFpu(mode);
    rebind(TOKENS.SignalFpuPolicy).toConstantValue(policy);
    bind(TOKENS.FpuTrapHook).toConstantValue(policy);
    if (mode === "unmapped-page") bind(TOKENS.PageFaultHook).toConstantValue(policy);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => LAZY_PATHS });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
