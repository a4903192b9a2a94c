/**
 * ngpt: IBM's NGPT 2.2 M:N thread library (GNU Pth based, 2002), modelled on one LWP. Its
 * user-level switch makes 3 gettimeofday + 4 rt_sigprocmask system calls (Richard Seaman,
 * pthreads-users, Apr 2002), which is why it lost to LinuxThreads' sched_yield on his test.
 */
import { ContainerModule } from "inversify";
import { TOKENS, UThreadsBlockedChecker, validateManifest, type LoadedPlugin, type ThreadLibrary } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };
import { NgptLibrary } from "./library.js";
import { NGPT_PATHS } from "./paths.js";

const manifest = validateManifest(manifestJson, "packages/plugins/ngpt/plugin.json");

export { NgptLibrary, type NgptOptions } from "./library.js";
export { NGPT_PATHS } from "./paths.js";

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  module: (options) =>
    new ContainerModule(({ rebind, bind }) => {
      rebind<ThreadLibrary>(TOKENS.ThreadLibrary).toConstantValue(new NgptLibrary({ hpTiming: options["hpTiming"] === true, switchMask: options["switchMask"] !== false }));
      // one LWP: a syscall the library does not wrap blocks every user-level thread
      bind(TOKENS.InvariantChecker).toDynamicValue(() => new UThreadsBlockedChecker());
      bind(TOKENS.PathContribution).toConstantValue({ paths: () => NGPT_PATHS });
    }),
};

export default plugin;
