/**
 * The baseline user-space extension points: LinuxThreads (the thread library) and glibc's two ages
 * (the libc models), implemented on top of the Thread API as a real library sits on top of system
 * calls. Their interfaces are thread.ts's; libc's own code (setjmp, memcpy) is libc.ts's.
 */
import type { Vdso } from "@siglab/plugin-api";
import { SimError } from "../kernel/sim-error.js";
import type { Gen } from "../kernel/yields.js";
import type { LibcModel, PthreadHandleImpl, ThreadBody, ThreadImpl, ThreadLibrary } from "./thread.js";

/** LinuxThreads (1:1): every thread is a clone()d task; yield is sched_yield. */
export class LinuxThreads implements ThreadLibrary {
  readonly id = "linuxthreads";

  *create(t: ThreadImpl, body: ThreadBody): Gen<PthreadHandleImpl> {
    const tid = yield* t.clone(body as never);
    return { tid };
  }

  *join(t: ThreadImpl, th: PthreadHandleImpl): Gen<number> {
    return yield* t.waitFor(th.tid);
  }

  // plain functions returning the syscall's generator: one less generator per call
  yield(t: ThreadImpl): Gen<void> {
    return t.sched_yield() as unknown as Gen<void>;
  }

  read(t: ThreadImpl, fd: number, bytes: number): Gen<number> {
    return t.read(fd, bytes);
  }

  write(t: ThreadImpl, fd: number, bytes: number): Gen<number> {
    return t.write(fd, bytes);
  }

  *sigmask(t: ThreadImpl, how: 0 | 1 | 2, set: number[]): Gen<number[]> {
    const r = yield* t.sigprocmask(how, set);
    return typeof r === "number" ? [] : r;
  }

  self(t: ThreadImpl): number {
    return t.tid;
  }
}

/**
 * glibc's memcpy: integer copies (glibc 2.2, 2002) or SSE above a threshold (modern glibc, which
 * clobbers xmm0-xmm3 — the SA_NOFP hazard). gettimeofday is a real syscall on i386 2.4; with a
 * vDSO mapped (a plugin's k.mm.map_vdso, linux-6) glibc calls __vdso_gettimeofday instead.
 */
export class Glibc implements LibcModel {
  constructor(readonly id: string, readonly sseMemcpy: boolean, readonly sseThreshold: number) {}

  *memcpy(t: ThreadImpl, bytes: number): Gen<void> {
    yield* t.userMemcpy(bytes, this.sseMemcpy && bytes >= this.sseThreshold);
  }

  gettimeofday(t: ThreadImpl): Gen<{ sec: number; usec: number }> {
    const vdso = t.kernel.vdso;
    // glibc calls the kernel's vDSO when one is mapped (linux-6), else makes the system call
    if (vdso) return vdsoGettimeofday(vdso, t);
    return t.gettimeofday(); // the syscall itself: no wrapper generator on this hot path
  }

  /** gettimeofday without a generator (thread libraries stamp the time on every switch; see ThreadImpl.sigprocmaskSetNow) */
  gettimeofdayNow(t: ThreadImpl): { sec: number; usec: number } | undefined {
    return t.kernel.vdso ? undefined : t.gettimeofdayNow();
  }
  gettimeofdayRest(t: ThreadImpl): Gen<{ sec: number; usec: number }> {
    const vdso = t.kernel.vdso;
    return vdso ? vdsoGettimeofday(vdso, t) : t.gettimeofdayRest();
  }
}

/** A plugin's __vdso_gettimeofday, its result checked (plain numbers only reach the workload). */
function* vdsoGettimeofday(vdso: Vdso, t: ThreadImpl): Gen<{ sec: number; usec: number }> {
  // user-mode code of this thread: only on its turn (a generator made on one thread and stepped on
  // another would charge the wrong task), as every other call of the thread API
  t.checkTurn();
  const it = vdso.gettimeofday(t) as unknown as Gen<unknown> | null;
  if (!it || typeof it.next !== "function") throw new SimError("plugin", `the vDSO '${String(vdso.id)}': gettimeofday must be a generator function (function* (th) { ... })`);
  const r = (yield* it) as unknown;
  const sec = (r as { sec?: unknown } | null)?.sec, usec = (r as { usec?: unknown } | null)?.usec;
  // what the system call would return: whole seconds, and microseconds below a second
  if (typeof sec !== "number" || typeof usec !== "number" || !Number.isInteger(sec) || !Number.isInteger(usec) || sec < 0 || usec < 0 || usec >= 1e6) {
    throw new SimError("plugin", `the vDSO '${String(vdso.id)}': gettimeofday must return { sec, usec } as integers, sec >= 0 and 0 <= usec < 1,000,000`);
  }
  return { sec, usec };
}

export const LIBC_MODELS: Record<string, LibcModel> = {
  "glibc-2.2": new Glibc("glibc-2.2", false, Infinity),
  "glibc-modern": new Glibc("glibc-modern", true, 256),
};
