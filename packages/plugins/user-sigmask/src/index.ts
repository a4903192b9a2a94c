/**
 * user-sigmask: the blocked mask in a user page registered with the kernel (Gareth Knight's 2006
 * proposal, Solaris schedctl's sc_sigblock). A thread library's sigprocmask becomes a store; the
 * kernel reads the page when it decides deliverability and parks signals the page blocks, setting
 * a pending word the library checks after an unblocking store.
 */
import { ContainerModule, EFAULT, TOKENS, type CreateModule, type Kernel, type PluginModule, type SyscallContribution, type Task } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { NR_USER_SIGMASK_COLLECT, NR_USER_SIGMASK_REGISTER, rawUserMask, REGISTRATION, UserSigmaskAbi } from "./abi.js";
import { ParkedSignalChecker } from "./checker.js";
import { USER_SIGMASK_PATHS } from "./paths.js";
import { UserPageMaskStore } from "./store.js";

export { NR_USER_SIGMASK_REGISTER, NR_USER_SIGMASK_COLLECT, MASK_LO, MASK_HI, PENDING, UserSigmaskAbi } from "./abi.js";
export { UserPageMaskStore, type UserMaskOptions } from "./store.js";
export { ParkedSignalChecker } from "./checker.js";

function register(k: Kernel, t: Task, args: unknown[]): number {
  const addr = Number(args[0]);
  if (addr === 0) {
    t.dropSlot(REGISTRATION);
    t.userMask = null;
    k.signal.recalc_sigpending(t);
    return 0;
  }
  const prot = t.mm.protOf(addr);
  if (!Number.isInteger(addr) || addr % 4 !== 0 || prot === undefined || !(prot & 2) || t.mm.protOf(addr + 8) === undefined) return -EFAULT;
  const reg = { addr };
  t.setSlot(REGISTRATION, reg);
  // the program's own mask for the blocked-signal checker: the page as it is now
  t.userMask = { has: (sig: number) => rawUserMask(t, reg).has(sig) };
  k.count("user_sigmask.registered");
  k.signal.recalc_sigpending(t);
  return 0;
}

const SYSCALLS: SyscallContribution[] = [
  { nr: NR_USER_SIGMASK_REGISTER, name: "user_sigmask_register", path: "sys_user_sigmask_register", handler: register },
  {
    nr: NR_USER_SIGMASK_COLLECT,
    name: "user_sigmask_collect",
    path: "sys_user_sigmask_collect",
    // recalc_sigpending with the page as it is now; the exit path then delivers
    handler: (k, t) => {
      k.signal.recalc_sigpending(t);
      return 0;
    },
  },
];

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ rebind, bind }) => {
    const opts = { pendingFlag: options["pendingFlag"] !== false, readAtDelivery: options["readAtDelivery"] !== false };
    rebind(TOKENS.SignalMaskStore).toConstantValue(new UserPageMaskStore(opts));
    for (const s of SYSCALLS) bind(TOKENS.SyscallContribution).toConstantValue(s);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => USER_SIGMASK_PATHS });
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new ParkedSignalChecker());
    // thread libraries find the page ABI as the run's user-space mask service (k.userSigmask)
    bind(TOKENS.UserSigmask).toConstantValue(new UserSigmaskAbi());
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule };
export default plugin;
