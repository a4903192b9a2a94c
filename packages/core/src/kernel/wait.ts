/**
 * Wait queues (kernel/sched.c __wake_up, kernel/fork.c add_wait_queue/remove_wait_queue): a queue is
 * the tasks sleeping on it; a waker makes them all runnable.
 */
import type { KernelCore } from "./core.js";
import { pathRefs } from "./path-refs.js";
import type { Task } from "./task.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["__wake_up", "add_wait_queue", "remove_wait_queue"]);

/** __wake_up of every sleeper on `q` (the model's queues hold interruptible sleepers only). */
export function wakeAll(k: KernelCore, q: Task[]): void {
  k.runRef(P["__wake_up"]);
  while (q.length) {
    const w = q.shift()!;
    w.wakeReason = "data";
    k.wakeUp(w);
  }
}

/** add_wait_queue after current->state = TASK_INTERRUPTIBLE: the caller then schedules. */
export function sleepOn(k: KernelCore, t: Task, q: Task[]): void {
  k.runRef(P["add_wait_queue"]);
  t.state = "interruptible";
  t.wakeReason = "";
  q.push(t);
}

/** remove_wait_queue once the sleeper runs again. */
export function unqueue(k: KernelCore, t: Task, q: Task[]): void {
  const i = q.indexOf(t);
  if (i >= 0) q.splice(i, 1);
  k.runRef(P["remove_wait_queue"]);
}
