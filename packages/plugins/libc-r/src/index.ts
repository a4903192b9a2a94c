/**
 * libc-r: FreeBSD libc_r style N:1 threads — setjmp/longjmp switches, per-thread masks in user
 * memory, time from the scheduler's tick counter: no system call in a thread switch.
 */
import { ContainerModule, TOKENS, type CreateModule, type PluginModule } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { LibcR } from "./library.js";
import { LIBC_R_PATHS } from "./paths.js";

export { LibcR } from "./library.js";
export { LIBC_R_PATHS } from "./paths.js";

// (one LWP: a syscall the library does not wrap blocks every user-level thread; the core's
// user-level thread runtime reports it)
export const createModule: CreateModule = () =>
  new ContainerModule(({ rebind, bind }) => {
    rebind(TOKENS.ThreadLibrary).toConstantValue(new LibcR());
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => LIBC_R_PATHS });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
