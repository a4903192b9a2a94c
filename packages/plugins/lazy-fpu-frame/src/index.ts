/**
 * lazy-fpu-frame: deferred FP save at signal delivery (kernel-paths.md §5.4, V2 and V3).
 * Replaces the SignalFpuPolicy; hooks #NM (and #PF in unmapped-page mode) to do the save late.
 */
import { ContainerModule } from "inversify";
import { TOKENS, validateManifest, type FpuTrapHook, type LoadedPlugin, type PageFaultHook, type PathContribution, type SignalFpuPolicy } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };
import { LazyFrameFpu, type LazyMode } from "./lazy.js";
import { LAZY_PATHS } from "./paths.js";

const manifest = validateManifest(manifestJson, "packages/plugins/lazy-fpu-frame/plugin.json");

export { LazyFrameFpu, recordsOf, type LazyMode, type LazyRecord } from "./lazy.js";

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  module: (options) =>
    new ContainerModule(({ rebind, bind }) => {
      const mode: LazyMode = options["mode"] === "unmapped-page" ? "unmapped-page" : "ts";
      // one instance per run: it is both the policy and the trap hooks
      const policy = new LazyFrameFpu(mode);
      rebind<SignalFpuPolicy>(TOKENS.SignalFpuPolicy).toConstantValue(policy);
      bind<FpuTrapHook>(TOKENS.FpuTrapHook).toConstantValue(policy);
      if (mode === "unmapped-page") bind<PageFaultHook>(TOKENS.PageFaultHook).toConstantValue(policy);
      bind<PathContribution>(TOKENS.PathContribution).toConstantValue({ paths: () => LAZY_PATHS });
    }),
};

export default plugin;
