/**
 * Ending a task (kernel/exit.c): do_exit and what it tears down, and sys_wait4.
 */
import { markHostThrown } from "../common/host-thrown.js";

/** Terminates the task's generator after do_exit (nothing after exit runs). */
export class TaskExit {
  constructor(readonly code: number) {
    markHostThrown(this);
  }
}
