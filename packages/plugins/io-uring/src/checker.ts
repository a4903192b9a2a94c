/**
 * What the model of io_uring does not cover, as findings: an SQE whose opcode or file the plugin
 * does not model (Linux would complete it, through io-wq or poll arming), and setup flags whose
 * mechanisms are not modelled. The program sees the -errno in the CQE (or io_uring_setup's return);
 * the finding says that this is the model's limit, not the kernel's.
 */
import type { InvariantChecker, Kernel } from "@siglab/plugin-api";
import { URING_STATE } from "./ring.js";

export class UringModelChecker implements InvariantChecker {
  readonly id = "io-uring-model";

  attach(k: Kernel): void {
    k.events.on("run.end", () => {
      const s = k.peekSlot(URING_STATE) ?? null;
      for (const r of s?.refusals ?? []) {
        k.report({
          severity: "warning",
          kind: "io-uring-not-modelled",
          message: `task ${r.pid}: ${r.what}; the model failed it with an error where Linux would have run it`,
          evidence: { task: r.pid, reason: r.what, variants: k.variantIds.join(",") || "baseline", cycle: r.cycle },
        });
      }
    });
  }
}
