/**
 * The limits of 2.5/2.6 AIO as findings: an iocb that asks for a completion signal (there is no
 * signal notification: the sigevent field is reserved and io_submit refuses it), and an iocb on a
 * file without aio methods ("some types of I/O are better supported than others"). A program that
 * waits for such a signal, or for the completion of a refused request, would wait forever.
 */
import type { InvariantChecker, Kernel } from "@siglab/plugin-api";
import { AIO_STATE } from "./kioctx.js";

export class AioLimitChecker implements InvariantChecker {
  readonly id = "aio-limits";

  attach(k: Kernel): void {
    k.events.on("run.end", () => {
      const s = k.peekSlot(AIO_STATE) ?? null;
      for (const r of s?.refusals ?? []) {
        const sig = r.kind === "sigevent";
        k.report({
          severity: "warning",
          kind: sig ? "aio-no-signal-notification" : "aio-unsupported-operation",
          message: sig
            ? `task ${r.pid}: io_submit refused an iocb with -EINVAL: 2.5/2.6 AIO has no signal notification (the iocb's sigevent field is reserved, "TODO"); completions can only be collected with io_getevents`
            : `task ${r.pid}: io_submit refused an iocb with -EINVAL: ${r.what} (AIO covers only some operations; use a thread or O_ASYNC for this file)`,
          evidence: { task: r.pid, fd: r.fd, opcode: r.opcode, reason: r.what, path: "io_submit_one", variants: k.variantIds.join(",") || "baseline", cycle: r.cycle },
        });
      }
    });
  }
}
