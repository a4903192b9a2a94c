/**
 * The native side of `pnpm bench`: this machine's own null syscall and kill-and-catch loop, measured
 * by the probe (probe/siglab-probe.c, lmbench3's loops), so the simulator's host time per simulated
 * call or delivery is printed beside what the real one costs here (issue 12: "measured side by side
 * with a native probe"). Short intervals and few repetitions: the bench's budget is 45 s.
 */
import { buildProbe, ProbeError, runProbeBinary } from "./probe/build.js";
import { checkRawProbe, spread } from "./probe/figures.js";

export interface NativeLoops {
  /** getppid() per iteration, microseconds (lat_syscall null's loop) */
  nullSyscallUs: number;
  /** kill(getpid(), SIGUSR1) caught by an empty handler, per iteration (lat_sig do_catch's loop, nothing subtracted) */
  killAndCatchUs: number;
}

/** The medians of the probe's getppid and sig_catch loops, or why they could not be measured. */
export function measureNative(): NativeLoops | { skipped: string } {
  try {
    const built = buildProbe();
    const raw = checkRawProbe(runProbeBinary(built.binary, { repeat: 5, enoughUs: 1000, timeLimitS: 60 }));
    const loop = (id: string): number => {
      const l = raw.loops.find((x) => x.id === id);
      if (!l?.perIterationUs.length) throw new ProbeError(`the probe measured no '${id}' loop`);
      return spread(l.perIterationUs).median;
    };
    return { nullSyscallUs: loop("getppid"), killAndCatchUs: loop("sig_catch") };
  } catch (e) {
    // no compiler, a probe that failed or printed something this version cannot read: the bench
    // goes on without the native side and says why
    if (e instanceof ProbeError) return { skipped: e.message };
    if (e instanceof Error) return { skipped: `probe/siglab-probe.c: ${e.message}` };
    throw e;
  }
}
