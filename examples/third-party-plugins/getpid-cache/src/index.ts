/**
 * getpid-cache: what if getpid never entered the kernel?
 *
 * Mechanism. A new system call, set_pid_page(addr) (slot 253, unused in the 2.4 i386 table),
 * registers a user page. The kernel writes the caller's pid there and remembers the page in the
 * task (a task_struct field, so fork's copy of task_struct inherits it). A libc that got 0 back
 * answers getpid() with one load from the page instead of int $0x80 ... iret.
 *
 * Hazard. fork() copies the address space, page included: the child's copy still holds the
 * parent's pid. copy_process must rewrite it (option updateOnFork, default on). Without that, the
 * child's getpid() returns its parent's pid; the checker reports it as a finding.
 *
 * Modelling note: the plugin API has no fork hook, so copy_process's rewrite is done when the
 * child first runs (its first switch-in), before any of its user code; it is charged as a path of
 * its own ("getpid_cache.copy_process").
 */
import { ContainerModule, EFAULT, EINVAL, PROT_WRITE, TOKENS, op, stateKey, type CreateModule, type InvariantChecker, type Kernel, type KernelSetupContribution, type PathDef, type SyscallContribution, type Task } from "@siglab/plugin-api";

export const ID = "getpid-cache";
export const NR_set_pid_page = 253;
/** per task: the registered page address (inherited by a fork child, like a task_struct field) */
const PAGE = stateKey<number | null>(`${ID}.page`, () => null);
/** per task: copy_process's part has been done for this task */
const SEEN = stateKey(`${ID}.seen`, () => false);

const PATHS: PathDef[] = [
  {
    name: "sys_set_pid_page",
    phase: "syscall.body",
    origin: ID,
    ops: [
      op("sys_set_pid_page", "alu", 3, "access_ok(VERIFY_WRITE, addr, 4); page aligned?"),
      op("sys_set_pid_page", "put_user", 1, "put_user(current->tgid, (pid_t *)addr)"),
      op("sys_set_pid_page", "store", 1, "current->pid_page = addr"),
    ],
  },
  {
    name: "getpid_cache.copy_process",
    phase: "syscall.body",
    origin: ID,
    ops: [
      op("copy_process", "load", 1, "if (p->pid_page && !(clone_flags & CLONE_VM))"),
      op("copy_process", "put_user", 1, "put_user(p->tgid, p->pid_page) into the child's copy of the page"),
    ],
  },
];

/** set_pid_page(addr): register the page and write the pid into it; 0 or -errno. */
function setPidPage(k: Kernel, t: Task, args: unknown[]): number {
  const addr = Number(args[0]);
  if (!Number.isInteger(addr) || addr <= 0 || addr % 4096 !== 0) return -EINVAL;
  const prot = t.mm.protOf(addr);
  if (prot === undefined || (prot & PROT_WRITE) === 0) return -EFAULT;
  t.mm.words.set(addr, t.tgid);
  t.setSlot(PAGE, addr);
  k.count(`${ID}.registered`);
  return 0;
}

/** The part of copy_process this patch adds, done when a new task first runs. */
function onFirstRun(k: Kernel, t: Task, updateOnFork: boolean): void {
  if (t.peekSlot(SEEN) || t === k.idle) return;
  t.setSlot(SEEN, true);
  const parent = k.tasks.get(t.ppid);
  const page = parent?.peekSlot(PAGE);
  if (!parent || typeof page !== "number") return;
  t.setSlot(PAGE, page); // *p = *current: the registration is part of task_struct
  if (t.mm === parent.mm) return; // a CLONE_VM thread shares the page and the tgid
  if (updateOnFork) {
    k.run("getpid_cache.copy_process");
    t.mm.words.set(page, t.tgid);
    k.count(`${ID}.fork_updates`);
  }
}

/** A task's pid page must hold its own pid when it first runs in user mode, whenever it leaves the CPU, and at the end. */
class StalePidPageChecker implements InvariantChecker {
  readonly id = `${ID}.stale-pid-page`;

  attach(k: Kernel): void {
    const check = (t: Task) => {
      const page = t.peekSlot(PAGE);
      // not registered, or the task unmapped the page since
      if (typeof page !== "number" || t === k.idle || t.mm.protOf(page) === undefined) return;
      const cached = t.mm.words.get(page);
      if (cached === t.tgid) return;
      k.report({
        severity: "error",
        kind: `${ID}.stale-pid`,
        message: `task ${t.pid}'s pid page at 0x${page.toString(16)} says ${cached}, not ${t.tgid}: its getpid() returns ${cached === t.ppid ? "its parent's" : "a wrong"} pid (fork copied the page and nothing rewrote it)`,
        evidence: { task: t.pid, page, cached, actual: t.tgid, parent: t.ppid, variants: k.variantIds.join(","), cycle: k.cycles },
      });
    };
    // a child that forks, reads its pid and exits never leaves the CPU with its page: exit
    // tears its address space down before its last switch (exit_mm). So each task is also
    // checked once, at its first return to user mode (after its first switch-in's copy_process
    // part: a fork child's first user act is the store to its copy-on-write stack page, whose
    // fault returns to user mode). return.user fires on every return, hence the once.
    const seenInUser = new WeakSet<Task>();
    k.events.on("return.user", (t) => {
      if (seenInUser.has(t)) return;
      seenInUser.add(t);
      check(t);
    });
    k.events.on("switch.out", check);
    k.events.on("run.end", () => {
      for (const t of k.tasks.values()) check(t);
    });
  }
}

export const createModule: CreateModule = (options) => {
  const updateOnFork = options["updateOnFork"] !== false;
  const syscall: SyscallContribution = { nr: NR_set_pid_page, name: "set_pid_page", path: "sys_set_pid_page", handler: setPidPage };
  const setup: KernelSetupContribution = {
    setup(k) {
      k.events.on("switch.in", (t) => onFirstRun(k, t, updateOnFork));
    },
  };
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.SyscallContribution).toConstantValue(syscall);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => PATHS });
    bind(TOKENS.KernelSetupContribution).toConstantValue(setup);
    // a fresh checker per run
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new StalePidPageChecker());
  });
};
