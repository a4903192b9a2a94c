/**
 * sysenter: Linux 2.5.53's SYSENTER/SYSEXIT fast system call and vsyscall page (kernel-paths.md
 * §3, V4). Replaces the EntryMechanism; adds the stub and sysenter_entry paths; adds the SYSENTER
 * MSR rewrite to every context switch.
 */
import { ContainerModule } from "inversify";
import { TOKENS, validateManifest, type EntryMechanism, type KernelSetupContribution, type LoadedPlugin, type PathContribution, type PathTransformContribution } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };
import { SysenterEntry } from "./entry.js";
import { msrRewrite, sysenterPaths } from "./paths.js";

const manifest = validateManifest(manifestJson, "packages/plugins/sysenter/plugin.json");

export { SysenterEntry, STUB_KEY, type SysenterOptions } from "./entry.js";

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  module: (options) =>
    new ContainerModule(({ rebind, bind }) => {
      const msrWrites = Math.round(Number(options["msrWritesPerSwitch"]));
      const entry = new SysenterEntry({
        sigreturnEntry: options["sigreturnEntry"] === "vsyscall" ? "vsyscall" : "int80",
        forgetIret: options["forgetIret"] === true,
      });
      rebind<EntryMechanism>(TOKENS.EntryMechanism).toConstantValue(entry);
      bind<PathContribution>(TOKENS.PathContribution).toConstantValue({ paths: () => sysenterPaths(msrWrites > 0) });
      bind<PathTransformContribution>(TOKENS.PathTransformContribution).toConstantValue({ transforms: () => msrRewrite(msrWrites) });
      bind<KernelSetupContribution>(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k) => entry.attach(k) });
    }),
};

export default plugin;
