/**
 * io-uring: io_uring (Jens Axboe, Linux 5.1; the paths as in 6.x) on the linux6 plugin's x86-64
 * kernel. The submission and completion rings are memory the program and the kernel share: the
 * program writes SQEs and the SQ tail with stores, io_uring_enter submits them (or, with SQPOLL, a
 * kernel thread polling the ring does, with no system call), the device interrupt queues task_work
 * that posts CQEs, and the program reads them with loads. The modern answer to the seeds' AIO
 * question, with the aio_* examples' shape so the two can be compared.
 */
import { ContainerModule, TOKENS, type CreateModule, type KernelSetupContribution, type PluginModule, type PluginOptions } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { UringModelChecker } from "./checker.js";
import { URING_EXAMPLES } from "./examples.js";
import { URING_PATHS } from "./paths.js";
import { URING_STATE, UringState } from "./ring.js";
import { sqAdvance, sqFinish } from "./sqpoll.js";
import { sqPoll } from "./submit.js";
import { URING_SYSCALLS, run_task_work } from "./syscalls.js";

export { URING_PATHS, URING_SYSCALLS, URING_EXAMPLES };
export * from "./syscalls.js";
export { IORING_OP_NOP, IORING_OP_READ, IORING_OP_WRITE, io_submit_sqes, post_cqes, io_complete_rw } from "./submit.js";
export { OFF, SQE, CQE, SQE_BYTES, CQE_BYTES, IORING_SQ_NEED_WAKEUP, IORING_SQ_CQ_OVERFLOW } from "./ring.js";
export { pathCycles } from "./sqpoll.js";

function setup(options: PluginOptions): KernelSetupContribution {
  return {
    setup(k) {
      if (!k.variantIds.includes("linux6")) {
        throw new Error(`plugin 'io-uring' needs the linux6 plugin in the variant stack (io_uring is Linux 5.1+; its paths here are 6.x x86-64 ones): use --preset linux-6+io-uring (or --variant linux6 --variant io-uring) on an x86-64 CPU (skylake, skylake-x, zen4, zen5); the stack was [${k.variantIds.join(", ")}]`);
      }
      const s = new UringState();
      k.setSlot(URING_STATE, s);
      k.files.configureDisk({ latencyUs: Number(options["deviceLatencyUs"]), intervalUs: Number(options["deviceIntervalUs"]) }, "plugin 'io-uring'");
      // the SQ thread polls the SQ tail: it sees the program's store of the tail word
      k.events.on("user.store", (t, addr) => {
        const ring = s.sqTails.get(addr);
        if (!ring || ring.mm !== t.mm) return;
        sqAdvance(k, ring);
        sqPoll(k, ring);
      });
      // TIF_NOTIFY_SIGNAL: task_work queued by a completion runs on the task's next return to user
      // mode (exit_to_user_mode_loop -> arch_do_signal_or_restart -> get_signal -> task_work_run)
      k.events.on("return.user", (t) => {
        run_task_work(k, t, "exit");
      });
      k.events.on("run.end", () => {
        for (const ring of s.rings.values()) sqFinish(k, ring);
      });
    },
  };
}

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ bind }) => {
    for (const s of URING_SYSCALLS) bind(TOKENS.SyscallContribution).toConstantValue(s);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => URING_PATHS });
    bind(TOKENS.KernelSetupContribution).toConstantValue(setup(options));
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new UringModelChecker());
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule, examples: URING_EXAMPLES };
export default plugin;
