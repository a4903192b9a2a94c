/**
 * libc-r: FreeBSD libc_r style N:1 threads — setjmp/longjmp switches, per-thread masks in user
 * memory, time from the scheduler's tick counter: no system call in a thread switch.
 */
import { ContainerModule } from "inversify";
import { TOKENS, UThreadsBlockedChecker, validateManifest, type LoadedPlugin, type ThreadLibrary } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };
import { LibcR } from "./library.js";
import { LIBC_R_PATHS } from "./paths.js";

const manifest = validateManifest(manifestJson, "packages/plugins/libc-r/plugin.json");

export { LibcR } from "./library.js";
export { LIBC_R_PATHS } from "./paths.js";

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  module: () =>
    new ContainerModule(({ rebind, bind }) => {
      rebind<ThreadLibrary>(TOKENS.ThreadLibrary).toConstantValue(new LibcR());
      // one LWP: a syscall the library does not wrap blocks every user-level thread
      bind(TOKENS.InvariantChecker).toDynamicValue(() => new UThreadsBlockedChecker());
      bind(TOKENS.PathContribution).toConstantValue({ paths: () => LIBC_R_PATHS });
    }),
};

export default plugin;
