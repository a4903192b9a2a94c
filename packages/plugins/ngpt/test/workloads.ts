/** Small workloads for the thread-library tests (sources, run through the core harness). */
export const W = (body: string, params = "{}") => `
import { workload } from "siglab";
export default workload({ name: "t", params: ${params}, *main(t, p) { ${body} } });`;

/** A reader waits on an empty pipe until a writer (another user thread) fills it. */
export const PIPE_WAIT = W(`
  const [r, w] = yield* t.pipe();
  let got = 0;
  const reader = yield* t.pthread.create(function* (th) {
    while (got < p.bytes) {
      const n = yield* th.pthread.read(r, p.bytes - got);
      if (n <= 0) break;
      got += n;
    }
  });
  const writer = yield* t.pthread.create(function* (th) {
    yield* th.compute(5000);
    yield* th.pthread.write(w, p.bytes);
  });
  yield* t.pthread.join(reader);
  yield* t.pthread.join(writer);
  t.report("got", got, "bytes");
`, "{ bytes: 64 }");

/** The only user thread waits for data another process writes later: the LWP must sleep in select. */
export const PIPE_FROM_CHILD = W(`
  const [r, w] = yield* t.pipe();
  const pid = yield* t.fork(function* (c) {
    yield* c.nanosleep(1_000_000);
    yield* c.write(w, 32);
  });
  let got = 0;
  const reader = yield* t.pthread.create(function* (th) { got = yield* th.pthread.read(r, 32); });
  yield* t.pthread.join(reader);
  yield* t.wait();
  t.report("got", got, "bytes");
  t.report("child", pid > 0 ? 1 : 0, "");
`);

/**
 * Per-thread masks: B blocks SIGUSR1 and yields; A (unblocked) runs; back in B, B sends SIGUSR1 to
 * its own process: it must stay pending until B unblocks it.
 */
export const PER_THREAD_MASK = W(`
  let handled = 0, whileBlocked = -1;
  yield* t.sigaction(10, function* () { handled++; });
  const b = yield* t.pthread.create(function* (th) {
    yield* th.pthread.sigmask(0, [10]);
    yield* th.pthread.yield();
    yield* th.kill(th.pid, 10);
    yield* th.compute(1000);
    whileBlocked = handled;
    yield* th.pthread.sigmask(1, [10]);
  });
  const a = yield* t.pthread.create(function* (th) {
    yield* th.pthread.sigmask(1, [10]);
    yield* th.pthread.yield();
  });
  yield* t.pthread.join(b);
  yield* t.pthread.join(a);
  t.report("handled while blocked", whileBlocked, "signals");
  t.report("handled", handled, "signals");
`);

/** One thread sleeps in nanosleep (a syscall the library does not wrap) while another is ready. */
export const UNWRAPPED_SLEEP = W(`
  const a = yield* t.pthread.create(function* (th) {
    if (p.sleep) yield* th.nanosleep(2_000_000);
    else yield* th.compute(20_000);
  });
  const b = yield* t.pthread.create(function* (th) {
    for (let i = 0; i < 5; i++) yield* th.pthread.yield();
  });
  yield* t.pthread.join(a);
  yield* t.pthread.join(b);
  t.report("done", 1, "");
`, "{ sleep: true }");
