/**
 * ngpt: IBM's NGPT 2.2 M:N thread library (GNU Pth based, 2002), modelled on one LWP. Its
 * user-level switch makes 3 gettimeofday + 4 rt_sigprocmask system calls (Richard Seaman,
 * pthreads-users, Apr 2002), which is why it lost to LinuxThreads' sched_yield on his test.
 */
import { ContainerModule, TOKENS, type CreateModule, type PluginModule } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { NgptLibrary } from "./library.js";
import { NGPT_PATHS } from "./paths.js";

export { NgptLibrary, type NgptOptions } from "./library.js";
export { NGPT_PATHS } from "./paths.js";

// (one LWP: a syscall the library does not wrap blocks every user-level thread; the core's
// user-level thread runtime reports it)
export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    rebind(TOKENS.ThreadLibrary).toConstantValue(new NgptLibrary({ hpTiming: options["hpTiming"] === true, switchMask: options["switchMask"] !== false }));
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => NGPT_PATHS });
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
