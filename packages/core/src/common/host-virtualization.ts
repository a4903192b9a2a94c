/**
 * Whether the probe's machine is a virtual machine, and the warning that goes with it. The
 * simulation models bare metal; a guest's every figure includes the hypervisor's exits (a PVM
 * guest's kernel runs deprivileged: every system call and CR3 write goes through the host), so
 * the error against such a probe says little about the model. `siglab probe` records
 * `host.virtualization` (apps/cli/src/probe/figures.ts detects it); `suite host`,
 * `calibrate --from-probe` and the app's summary read it with readVirtualization and warn with
 * virtualizationWarning.
 *
 * Common code (no DOM, no Node): the CLI and the app both use it.
 */

/** `siglab probe --json`'s host.virtualization. */
export interface HostVirtualization {
  /** any evidence was found */
  virtualized: boolean;
  /** one line per piece of evidence: where it was read and what it said */
  evidence: string[];
  /** the hypervisor named by the evidence, or null when none is named */
  hypervisor: string | null;
}

const MAX_EVIDENCE = 20;

/**
 * host.virtualization of a probe document, validated: null when absent or not of the shape (a
 * probe from before the field: unknown, not bare metal).
 */
export function readVirtualization(v: unknown): HostVirtualization | null {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return null;
  const r = v as Record<string, unknown>;
  if (typeof r["virtualized"] !== "boolean") return null;
  const evidence = Array.isArray(r["evidence"]) ? r["evidence"].filter((e): e is string => typeof e === "string").slice(0, MAX_EVIDENCE).map((e) => e.slice(0, 200)) : [];
  const hypervisor = typeof r["hypervisor"] === "string" && r["hypervisor"] ? r["hypervisor"].slice(0, 120) : null;
  return { virtualized: r["virtualized"], evidence, hypervisor };
}

/**
 * The warning for a probe of a virtual machine, one paragraph; null when the probe says bare
 * metal or does not say. `use` is what is done with the figures: compared with the simulation
 * (`suite host`, the app), or fitted (`calibrate --from-probe`).
 */
export function virtualizationWarning(v: HostVirtualization | null | undefined, use: "compare" | "fit" = "compare"): string | null {
  if (!v?.virtualized) return null;
  const what = `this machine is a virtual machine${v.hypervisor ? ` (${v.hypervisor})` : ""}${v.evidence.length ? `; evidence: ${v.evidence.join("; ")}` : ""}.`;
  const why = "Every measured figure includes the hypervisor's exits";
  return use === "fit"
    ? `${what} ${why}: a profile fitted to them bakes the hypervisor's costs into the CPU's, and describes this VM, not its CPU on bare metal (docs/modern.md).`
    : `${what} ${why}, so the errors are not the model's accuracy: the comparison is meant for bare metal (docs/modern.md).`;
}

/** A short label of a virtual machine for provenance lines ("a virtual machine (KVM)"); null when not one. */
export function virtualizationLabel(v: HostVirtualization | null | undefined): string | null {
  return v?.virtualized ? `a virtual machine${v.hypervisor ? ` (${v.hypervisor})` : ""}` : null;
}
