/**
 * vsyscall-gettimeofday: gettimeofday without entering the kernel, as x86-64 Linux does it.
 *
 * Mechanism. x86-64's vsyscall page (arch/x86_64/kernel/vsyscall.c, 2.4.x x86-64 and 2.5:
 * vgettimeofday) holds what the timer interrupt last wrote: xtime and the TSC stamp of that tick
 * (vxtime.last_tsc), under the xtime_lock seqlock. Kernel side: on each tick, do_timer's
 * write_seqlock ... write_sequnlock updates them (here: a `tick` subscriber and a path of its own).
 * User side: a libc model, "glibc-vsyscall", reads them between read_seqbegin and read_seqretry,
 * reads the TSC and scales: xtime + (tsc - last_tsc) / MHz, which is what sys_gettimeofday returns.
 * (The model keeps xtime in cycles, so that the sum is exact.) A workload picks it with
 * `libc: "glibc-vsyscall"`; memcpy stays glibc 2.2's integer copy.
 *
 * Hazard. seqlock=false drops the read_seqretry loop: a tick that lands after the read of xtime and
 * before the read of last_tsc gives a torn value, the old xtime plus the offset from the new tick,
 * one tick (10 ms) in the past. The checker reports a task whose time went backwards.
 */
import { ContainerModule, TOKENS, op, runUserAndRead, stateKey } from "@siglab/plugin-api";
import type { CreateModule, Gen, InvariantChecker, Kernel, LibcModel, PathDef, PluginManifest, RuntimeThread, Task } from "@siglab/plugin-api";

export const ID = "vsyscall-gettimeofday";

export const manifest: PluginManifest = {
  id: ID,
  version: "1.0.0",
  apiVersion: "2.0",
  displayName: "gettimeofday in user space (x86-64's vsyscall page)",
  description: "A libc model, glibc-vsyscall, whose gettimeofday reads xtime and the TSC stamp of the last tick from a page the timer interrupt updates under a seqlock, then the TSC: no system call. Its hazard: without the seqlock retry, a tick between the reads makes time go backwards.",
  options: {
    seqlock: {
      type: "boolean",
      default: true,
      description: "retry the read when the sequence count changed (read_seqbegin/read_seqretry). false reproduces the hazard: a tick inside the read gives a torn value, and time goes backwards",
    },
  },
  contributes: ["LibcModel", "PathContribution", "KernelSetupContribution", "InvariantChecker"],
  main: "dist/index.cjs",
};

/** the vsyscall page (per run): what do_timer last published */
const VXTIME = stateKey(`${ID}.vxtime`, () => ({ seq: 0, xtime: 0, lastTsc: 0 }));
/** per task: what its gettimeofday returned last, and every step back (recorded for the checker) */
const CLOCK = stateKey(`${ID}.clock`, () => ({ last: -1, back: [] as { from: number; to: number; cycle: number }[] }));

const user = (name: string, ops: PathDef["ops"]): PathDef => ({ name, phase: "user", origin: ID, ops });
const PATHS: PathDef[] = [
  user("vgettimeofday.xtime", [
    op("gettimeofday", "call", 1, "glibc: call vgettimeofday in the vsyscall page (its ret included)"),
    op("read_seqbegin", "load", 1, "seq = xtime_lock.sequence"),
    op("do_vgettimeofday", "load", 4, "__xtime.tv_sec, tv_nsec; __jiffies, __wall_jiffies"),
    op("do_vgettimeofday", "alu", 4, "usec = tv_nsec / 1000 + (jiffies - wall_jiffies) * (1000000 / HZ)"),
  ]),
  user("vgettimeofday.tsc", [
    op("do_vgettimeofday", "load", 3, "__vxtime.mode == VXTIME_TSC; __vxtime.last_tsc, tsc_quot"),
    op("do_vgettimeofday", "rdtsc", 1, "rdtscll(t)"),
  ]),
  user("vgettimeofday.retry", [
    op("do_vgettimeofday", "alu", 4, "usec += ((t - last_tsc) * tsc_quot) >> 32"),
    op("read_seqretry", "load", 1, "xtime_lock.sequence again"),
    op("read_seqretry", "alu", 1, "changed: start over"),
    op("do_vgettimeofday", "alu", 4, "tv_sec = sec + usec / 1000000; tv_usec = usec % 1000000"),
    op("do_vgettimeofday", "store", 2, "tv->tv_sec, tv->tv_usec"),
  ]),
  {
    name: "vxtime.update",
    phase: "irq.timer",
    origin: ID,
    ops: [
      op("write_seqlock", "store", 1, "xtime_lock.sequence++ (odd: update in progress)"),
      op("timer_interrupt", "store", 1, "vxtime.last_tsc = the tick's TSC (xtime itself: do_timer)"),
      op("write_sequnlock", "store", 1, "xtime_lock.sequence++ (even again)"),
    ],
  },
];

class GlibcVsyscall implements LibcModel {
  readonly id = "glibc-vsyscall";
  readonly sseMemcpy = false;
  readonly sseThreshold = Infinity;
  constructor(private readonly seqlock: boolean) {}

  memcpy(t: RuntimeThread, bytes: number): Gen<void> {
    return t.userMemcpy(bytes, false);
  }

  *gettimeofday(t: RuntimeThread): Gen<{ sec: number; usec: number }> {
    const k = t.kernel, page = k.slot(VXTIME);
    let usec: number;
    for (;;) {
      const [seq, xtime] = yield* runUserAndRead(t, "vgettimeofday.xtime", () => [page.seq, page.xtime]);
      const [lastTsc, tsc] = yield* runUserAndRead(t, "vgettimeofday.tsc", () => [page.lastTsc, k.cycles]);
      usec = Math.floor((xtime + tsc - lastTsc) / k.profile.mhz);
      const changed = yield* runUserAndRead(t, "vgettimeofday.retry", () => page.seq !== seq);
      if (!changed || !this.seqlock) break;
      k.count(`${ID}.retries`);
    }
    const clock = t.task.slot(CLOCK);
    if (usec < clock.last) clock.back.push({ from: clock.last, to: usec, cycle: k.cycles });
    clock.last = usec;
    return { sec: Math.floor(usec / 1e6), usec: usec % 1e6 };
  }
}

/** Per task, the time gettimeofday returns never decreases (reported when the task leaves the CPU). */
class MonotonicTimeChecker implements InvariantChecker {
  readonly id = `${ID}.monotonic`;
  private readonly seen = new Map<Task, number>();
  constructor(private readonly seqlock: boolean) {}

  attach(k: Kernel): void {
    const check = (t: Task) => {
      const clock = t.peekSlot(CLOCK);
      if (!clock) return;
      for (const s of clock.back.slice(this.seen.get(t) ?? 0)) {
        k.report({
          severity: "error",
          kind: `${ID}.time-went-backwards`,
          message: `gettimeofday of task ${t.pid} returned ${s.to} us after ${s.from} us (${s.to - s.from} us)${this.seqlock ? "" : ": a tick between the reads of xtime and vxtime.last_tsc, and no read_seqretry"}`,
          evidence: { task: t.pid, previousUs: s.from, returnedUs: s.to, cycle: s.cycle, variants: k.variantIds.join(",") },
        });
      }
      this.seen.set(t, clock.back.length);
    };
    k.events.on("switch.out", check);
    // a task's last reads: at its exit (before it is reaped), or at the end for one still alive
    k.events.on("task.exit", check);
    k.events.on("run.end", () => {
      for (const t of k.tasks.values()) check(t);
    });
  }
}

export const createModule: CreateModule = (options) => {
  const seqlock = options["seqlock"] !== false;
  return new ContainerModule(({ bind }) => {
    bind(TOKENS.LibcModel).toConstantValue(new GlibcVsyscall(seqlock));
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => PATHS });
    // do_timer's part: the update is atomic (interrupts are off in the timer interrupt, one CPU)
    bind(TOKENS.KernelSetupContribution).toConstantValue({
      setup(k) {
        k.events.on("tick", () => {
          const page = k.slot(VXTIME);
          page.seq += 2;
          page.xtime = page.lastTsc = k.cycles;
          k.run("vxtime.update");
        });
      },
    });
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new MonotonicTimeChecker(seqlock));
  });
};
