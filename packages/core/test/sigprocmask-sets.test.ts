/**
 * sys_rt_sigprocmask's sets: what it returns is the caller's alone and what it installs is the
 * kernel's alone — SETMASK hands back the replaced set itself (no copy), BLOCK/UNBLOCK and a query
 * a copy — so no later change on either side reaches the other.
 */
import { describe, expect, it } from "vitest";
import { sys_rt_sigprocmask } from "../src/kernel/signal.js";
import { Sigset } from "../src/kernel/sigset.js";
import type { Kernel } from "../src/kernel/kernel.js";
import type { Task } from "../src/kernel/task.js";

const SIGUSR1 = 10, SIGUSR2 = 12, SIGALRM = 14, SIGKILL = 9;
const k = { runRef() {}, recalcSigpending() {} } as unknown as Kernel;

describe("sys_rt_sigprocmask", () => {
  it("SETMASK returns the replaced set; neither it nor the caller's set is the installed one", () => {
    const t = { blocked: Sigset.of([SIGUSR1]) } as unknown as Task;
    const mine = Sigset.of([SIGUSR2, SIGKILL]);
    const old = sys_rt_sigprocmask(k, t, 2, mine) as Sigset;
    expect(old.toList()).toEqual([SIGUSR1]);
    expect(t.blocked.toList()).toEqual([SIGUSR2]); // SIGKILL cannot be blocked
    old.add(SIGALRM);
    mine.add(SIGALRM);
    expect(t.blocked.toList()).toEqual([SIGUSR2]);
    // and the kernel's later in-place changes do not reach the returned set
    sys_rt_sigprocmask(k, t, 0, Sigset.of([SIGUSR1]));
    expect(old.toList()).toEqual([SIGUSR1, SIGALRM]);
  });

  it("BLOCK, UNBLOCK and a query return copies of the mask before the call", () => {
    const t = { blocked: Sigset.of([SIGUSR1]) } as unknown as Task;
    const q = sys_rt_sigprocmask(k, t, 0, null) as Sigset;
    const b = sys_rt_sigprocmask(k, t, 0, Sigset.of([SIGUSR2])) as Sigset;
    const u = sys_rt_sigprocmask(k, t, 1, Sigset.of([SIGUSR1])) as Sigset;
    expect(q.toList()).toEqual([SIGUSR1]);
    expect(b.toList()).toEqual([SIGUSR1]);
    expect(u.toList()).toEqual([SIGUSR1, SIGUSR2]);
    expect(t.blocked.toList()).toEqual([SIGUSR2]);
    expect(sys_rt_sigprocmask(k, t, 7, Sigset.of([SIGUSR1]))).toBeLessThan(0); // -EINVAL
    expect(t.blocked.toList()).toEqual([SIGUSR2]);
  });
});
