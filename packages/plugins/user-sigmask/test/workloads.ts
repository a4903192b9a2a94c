/** Workloads that drive the user mask page directly (the protocol a thread library follows). */
import { NR_USER_SIGMASK_COLLECT, NR_USER_SIGMASK_REGISTER } from "../src/index.js";

export const W = (body: string, params = "{}") => `
import { workload } from "siglab";
const REGISTER = ${NR_USER_SIGMASK_REGISTER}, COLLECT = ${NR_USER_SIGMASK_COLLECT};
export default workload({ name: "t", params: ${params}, *main(t, p) { ${body} } });`;

/**
 * SIGUSR1 arrives while a store in the page blocks it; a plain store unblocks it. With `check`
 * the program reads the pending word and enters the kernel to collect; with `late` an unrelated
 * rt_sigprocmask (a recalc_sigpending) comes `gap` cycles after the unblocking store.
 */
export const PARK_AND_UNBLOCK = W(`
  let handled = 0;
  yield* t.sigaction(10, function* () { handled++; });
  const page = yield* t.mmap(4096, 3);
  const r = yield* t.syscall(REGISTER, page);
  t.report("register", r, "");
  yield* t.store(page, 1 << 9);            // block SIGUSR1 with a store (no syscall)
  yield* t.kill(t.pid, 10);                 // the kernel reads the page: parked
  t.report("handled while blocked", handled, "signals");
  t.report("pending word", yield* t.load(page + 8), "");
  yield* t.store(page, 0);                  // unblock with a plain store: no kernel entry
  if (p.check && (yield* t.load(page + 8))) yield* t.syscall(COLLECT);
  t.report("handled right after unblock", handled, "signals");
  yield* t.compute(p.gap);
  if (p.late) yield* t.sigprocmask(0, []);
  t.report("handled", handled, "signals");
  t.report("pending word after", yield* t.load(page + 8), "");
`, "{ check: true, late: false, gap: 50000 }");

/**
 * SIGUSR1 and SIGUSR2 are pending together; SIGUSR1's handler runs first (2.4 delivers one per
 * return), so SIGUSR2 stays pending with sigpending set. The handler blocks SIGUSR2 with a store
 * and then enters the kernel (getpid): delivery must re-read the page and hold SIGUSR2 back.
 */
export const BLOCK_RACE = W(`
  let usr2 = 0, usr2InHandler = -1;
  const page = yield* t.mmap(4096, 3);
  yield* t.syscall(REGISTER, page);
  yield* t.sigaction(10, function* (h) {
    yield* h.store(page, 1 << 11);          // block SIGUSR2 by a store, while it is already pending
    yield* h.getpid();                      // a kernel entry with the stale sigpending
    usr2InHandler = usr2;
  });
  yield* t.sigaction(12, function* () { usr2++; });
  yield* t.sigprocmask(0, [10, 12]);
  yield* t.kill(t.pid, 10);
  yield* t.kill(t.pid, 12);
  yield* t.sigprocmask(1, [10, 12]);        // SIGUSR1 is delivered on this return
  t.report("usr2 while user-blocked", usr2InHandler, "signals");
  yield* t.store(page, 0);
  if (yield* t.load(page + 8)) yield* t.syscall(COLLECT);
  t.report("usr2", usr2, "signals");
`);
