/**
 * sysenter: Linux 2.5.53's SYSENTER/SYSEXIT fast system call and vsyscall page (kernel-paths.md
 * §3, V4). Replaces the EntryMechanism; adds the stub and sysenter_entry paths; adds the SYSENTER
 * MSR rewrite to every context switch.
 */
import { ContainerModule, TOKENS, type CreateModule, type PluginModule } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { SysenterEntry } from "./entry.js";
import { msrRewrite, sysenterPaths } from "./paths.js";

export { SysenterEntry, STUB_KEY, type SysenterOptions } from "./entry.js";

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    const msrWrites = Math.round(Number(options["msrWritesPerSwitch"]));
    const entry = new SysenterEntry({
      sigreturnEntry: options["sigreturnEntry"] === "vsyscall" ? "vsyscall" : "int80",
      forgetIret: options["forgetIret"] === true,
    });
    rebind(TOKENS.EntryMechanism).toConstantValue(entry);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => sysenterPaths(msrWrites > 0) });
    bind(TOKENS.PathTransformContribution).toConstantValue({ transforms: () => msrRewrite(msrWrites) });
    bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k) => entry.attach(k) });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
