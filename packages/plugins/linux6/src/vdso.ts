/**
 * The x86-64 vDSO's gettimeofday (lib/vdso/gettimeofday.c __cvdso_gettimeofday -> do_hres, with
 * arch/x86/include/asm/vdso/gettimeofday.h's __arch_get_hw_counter and include/vdso/helpers.h's
 * seqcount): glibc calls __vdso_gettimeofday in user mode, which reads the TSC and converts it with
 * the timekeeper's mult/shift from the vvar page; the kernel is not entered. The timer tick
 * updates the vvar page (update_vsyscall) inside a seqcount write section, so a tick that lands
 * between the reader's vdso_read_begin and vdso_read_retry makes it read again.
 *
 * The clock: the vvar page holds cycle_last (the TSC at the last tick) and the time at that TSC
 * as sec + shifted nanoseconds (xtime_nsec << shift); a reader adds (tsc - cycle_last) * mult and
 * shifts. mult/shift are what clocks_calc_mult_shift gives a TSC of the profile's clock with a
 * shift of 24 (the tsc clocksource's usual shift on 1-5 GHz parts; estimated, the kernel computes
 * it at boot from the measured TSC frequency). u64 arithmetic as the kernel's (BigInt).
 */
import { op, stateKey, type Kernel, type PathDef, type RuntimeThread, type Vdso } from "@siglab/plugin-api";
import type { FastRuntimeThread } from "@siglab/plugin-api/internal";
import { p } from "./defs.js";

const SHIFT = 24n;
const NSEC_PER_SEC = 1_000_000_000n;

interface Vvar {
  /** vdso_data.seq: odd while update_vsyscall writes */
  seq: number;
  /** the TSC at the last update (cycle_last) */
  cycleLast: bigint;
  /** basetime[CLOCK_REALTIME]: sec and nsec << shift */
  sec: bigint;
  nsecShifted: bigint;
  /** mult for this CPU's TSC clock (0: not yet computed) */
  mult: bigint;
}

const VVAR = stateKey<Vvar>("linux6.vvar", () => ({ seq: 0, cycleLast: 0n, sec: 0n, nsecShifted: 0n, mult: 0n }));

/** clocks_calc_mult_shift for the TSC: ns = cycles * mult >> shift, mult = (10^9 << shift) / f (rounded). */
function multFor(mhz: number): bigint {
  return (NSEC_PER_SEC * (1n << SHIFT) + BigInt(Math.round(mhz * 1e6)) / 2n) / BigInt(Math.round(mhz * 1e6));
}

const cyclesNow = (k: Kernel): bigint => BigInt(Math.floor(k.cycles));

const RDTSCP = "rdtsc_ordered(): ALTERNATIVE_2 picks RDTSCP on CPUs with X86_FEATURE_RDTSCP (every x86-64 profile here). RDTSCP has no op class: charged as rdtsc; its wait for earlier instructions to retire is not charged (a lower bound)";

/** The vDSO's user-mode paths and the timer tick's update_vsyscall. */
export function vdsoPaths(): PathDef[] {
  return [
    p("__vdso_gettimeofday", "libc", [
      op("gettimeofday", "call_indirect", 1, "glibc's gettimeofday is an IFUNC resolved at startup to the vDSO's __vdso_gettimeofday (dl_vdso_vsym): one indirect call and its ret"),
      op("__cvdso_gettimeofday", "alu", 2, "tv != NULL; vd = __arch_get_vdso_data() (the vvar page, RIP-relative)"),
    ]),
    // one pass of do_hres's read loop up to the retry test (an interrupt may land before the test)
    p("do_hres", "libc", [
      op("vdso_read_begin", "load", 1, "seq = READ_ONCE(vd->seq)"),
      op("vdso_read_begin", "alu", 2, "while (seq & 1) cpu_relax(); smp_rmb() is a compiler barrier on x86"),
      op("__arch_get_hw_counter", "load", 1, "vd->clock_mode"),
      op("__arch_get_hw_counter", "alu", 1, "clock_mode == VDSO_CLOCKMODE_TSC"),
      op("__arch_get_hw_counter", "rdtsc", 1, RDTSCP),
      op("do_hres", "load", 5, "vd->mask, vdso_ts->nsec, vd->cycle_last, vd->mult, vd->shift"),
      op("vdso_calc_delta", "alu", 5, "cycles &= mask; (s64)cycles < 0?; cycles > last?; (cycles - last) * mult (the imul counted as alu); ns += ..."),
      op("do_hres", "alu", 1, "ns >>= vd->shift"),
      op("do_hres", "load", 1, "sec = vdso_ts->sec"),
    ]),
    p("vdso_read_retry", "libc", [
      op("vdso_read_retry", "load", 1, "smp_rmb(); seq = READ_ONCE(vd->seq)"),
      op("vdso_read_retry", "alu", 2, "seq != start? (unlikely: loop)"),
    ]),
    p("do_hres.tail", "libc", [
      op("__iter_div_u64_rem", "alu", 3, "while (ns >= NSEC_PER_SEC): at most one tick's worth past the base, so the test only (estimated: compare, branch, the loop's setup)"),
      op("__cvdso_gettimeofday", "alu", 3, "tv_usec = (u32)ts.tv_nsec / NSEC_PER_USEC: a multiply by the reciprocal and a shift"),
      op("__cvdso_gettimeofday", "store", 2, "tv->tv_sec, tv->tv_usec"),
      op("__cvdso_gettimeofday", "alu", 1, "tz == NULL; return 0"),
    ]),
    // kernel/time/vsyscall.c, run from the tick's timekeeping_update
    p("update_vsyscall", "irq.timer", [
      op("vdso_write_begin", "store", 2, "vc[CS_HRES_COARSE].seq++, vc[CS_RAW].seq++ (odd: readers wait); smp_wmb() is a compiler barrier on x86"),
      op("update_vsyscall", "load", 6, "tk->tkr_mono.cycle_last, mask, mult, shift, xtime_sec, xtime_nsec"),
      op("update_vdso_data", "store", 10, "cycle_last, mask, mult, shift of both clock bases; basetime[CLOCK_REALTIME], [CLOCK_MONOTONIC] sec/nsec"),
      op("update_vsyscall", "store", 6, "CLOCK_BOOTTIME, CLOCK_TAI, the coarse clocks' sec/nsec (estimated count)"),
      op("vdso_write_end", "store", 2, "seq++ again (even: valid)"),
    ]),
  ];
}

/**
 * The tick's timekeeping update of the vvar page: the time advances to this TSC with the same
 * mult/shift the readers use (so the two never disagree), inside a seqcount write section.
 */
export function updateVsyscall(k: Kernel): void {
  const vv = k.slot(VVAR);
  if (vv.mult === 0n) vv.mult = multFor(k.profile.mhz);
  const now = cyclesNow(k);
  // timekeeping runs on one CPU (the do_timer CPU) in Linux, but every CPU's tick reaches here:
  // a tick of a CPU whose clock is not ahead of the last update has nothing to publish
  if (now <= vv.cycleLast) return;
  k.run("update_vsyscall");
  vv.seq += 1; // vdso_write_begin
  vv.nsecShifted += (now - vv.cycleLast) * vv.mult;
  const perSec = NSEC_PER_SEC << SHIFT;
  while (vv.nsecShifted >= perSec) {
    vv.nsecShifted -= perSec;
    vv.sec += 1n;
  }
  vv.cycleLast = now;
  vv.seq += 1; // vdso_write_end
  k.count("linux6.update_vsyscall");
}

/** The vDSO linux6 maps into every process (k.mm.map_vdso). */
export class Linux6Vdso implements Vdso {
  readonly id = "linux6:vdso";

  *gettimeofday(t: RuntimeThread): Generator<unknown, { sec: number; usec: number }, unknown> {
    // the core's threads implement @siglab/plugin-api/internal (unstable, for built-in plugins):
    // runUserNow separates "do_hres ran" from "the interrupt due at its end landed"
    const th = t as FastRuntimeThread;
    const k = th.kernel;
    const vv = k.slot(VVAR);
    if (vv.mult === 0n) vv.mult = multFor(k.profile.mhz);
    yield* th.runUser("__vdso_gettimeofday");
    let sec = 0n;
    let ns = 0n;
    for (;;) {
      const start = vv.seq; // vdso_read_begin (never odd here: update_vsyscall runs whole, in an interrupt)
      const r = th.runUserNow("do_hres");
      if (r === 2) {
        // the interrupt comes first: nothing was read yet; take it and start over
        yield* th.runUserRest("do_hres", 1);
        continue;
      }
      // the TSC read by RDTSCP and the vvar fields as they were at that moment
      const cycles = cyclesNow(k);
      ns = vv.nsecShifted;
      if (cycles > vv.cycleLast) ns += (cycles - vv.cycleLast) * vv.mult;
      ns >>= SHIFT;
      sec = vv.sec;
      // an interrupt due now lands between the reads and the retry test
      if (r === 1) yield* th.runUserRest("do_hres", 1);
      yield* th.runUser("vdso_read_retry");
      if (vv.seq === start) break;
      k.count("linux6.vdso_seq_retries");
    }
    yield* th.runUser("do_hres.tail");
    // __iter_div_u64_rem(ns, NSEC_PER_SEC, &ns); tv_usec = nsec / NSEC_PER_USEC
    sec += ns / NSEC_PER_SEC;
    ns %= NSEC_PER_SEC;
    k.count("linux6.vdso_gettimeofday");
    return { sec: Number(sec), usec: Number(ns / 1000n) };
  }
}
