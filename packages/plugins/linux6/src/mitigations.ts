/**
 * Which mitigations a Linux 6.x kernel turns on for a CPU (the "auto" defaults), and the options
 * that override them. The defaults follow arch/x86/kernel/cpu/bugs.c and common.c's vulnerability
 * tables as described in words in each reason below; where the references (kernel-paths.md,
 * x86-costs.md) are silent the reason says "from memory of bugs.c, unverified".
 */
import type { PluginOptions, ResolvedProfile } from "@siglab/plugin-api";

export type SpectreV2 = "retpoline" | "ibrs" | "eibrs" | "off";

export interface Mitigations {
  /** page-table isolation: a CR3 write on every kernel entry and exit */
  pti: boolean;
  /** PCID in use: the PTI CR3 writes and switch_mm keep the TLB (NOFLUSH) */
  pcid: boolean;
  spectreV2: SpectreV2;
  /** how do_syscall_64 reaches the handler: the 6.9+ switch of direct calls, or the older table */
  dispatch: "switch" | "table";
  /** FILL_RETURN_BUFFER in __switch_to_asm */
  rsbFill: boolean;
  /** IBPB on a switch to another address space */
  ibpb: boolean;
  /** CLEAR_CPU_BUFFERS (VERW) before every return to user mode */
  verw: boolean;
  /** UNTRAIN_RET at entry and the return thunk on kernel returns (retbleed / SRSO) */
  retbleedUntrain: boolean;
  /** why each value is what it is (shown as counters' context in the README and docs) */
  reasons: Record<string, string>;
}

type Tri = "auto" | "on" | "off";

interface CpuDefaults {
  pti: [boolean, string];
  spectreV2: [SpectreV2, string];
  rsbFill: [boolean, string];
  ibpb: [boolean, string];
  verw: [boolean, string];
  retbleedUntrain: [boolean, string];
}

const IBPB_COND = "spectre_v2_user defaults to prctl (conditional IBPB): only tasks that ask for it with PR_SET_SPECULATION_CTRL get an IBPB on switch; the lmbench processes do not (bugs.c, from memory, unverified)";

const INTEL_SKYLAKE: CpuDefaults = {
  pti: [true, "Meltdown-affected Intel part: X86_BUG_CPU_MELTDOWN is set for Intel CPUs without RDCL_NO, so pti=auto enables PTI (kernel-paths.md §4: 'the PTI CR3 writes cost extra on Meltdown-affected Intel parts')"],
  spectreV2: ["ibrs", "Skylake has no enhanced IBRS and is retbleed-affected; since 5.19 spectre_v2=auto picks kernel IBRS on such Intel parts (bugs.c spectre_v2_select_mitigation, from memory, unverified): IBRS_ENTER/IBRS_EXIT write SPEC_CTRL on every entry and exit"],
  rsbFill: [true, "with a spectre_v2 mitigation that is not eIBRS, the kernel sets X86_FEATURE_RSB_CTXSW ('Filling RSB on context switch') (bugs.c, from memory, unverified)"],
  ibpb: [false, IBPB_COND],
  verw: [true, "Skylake is MDS-affected (no MDS_NO): mds=full puts CLEAR_CPU_BUFFERS (VERW) on every return to user mode (bugs.c mds_select_mitigation, from memory, unverified)"],
  retbleedUntrain: [false, "Intel: retbleed is mitigated by IBRS, not by the AMD untraining sequences"],
};

const AMD_ZEN4: CpuDefaults = {
  pti: [false, "AMD is not Meltdown-affected ('meltdown: Not affected', kernel-paths.md §4): no PTI"],
  spectreV2: ["eibrs", "Zen 4 has Automatic IBRS; spectre_v2=auto uses it (6.3+), so entry and exit write no MSR (bugs.c, from memory, unverified)"],
  rsbFill: [false, "with eIBRS/AutoIBRS 6.15+ no longer fills the RSB on context switch (bugs.c, from memory, unverified; older 6.x kernels did)"],
  ibpb: [false, IBPB_COND],
  verw: [false, "AMD is not MDS-affected: no VERW on exit"],
  retbleedUntrain: [true, "Zen 3/4 (family 19h) are SRSO-affected; the default srso mitigation is safe-RET: srso_untrain_ret at entry and srso_return_thunk on every kernel ret (bugs.c srso_select_mitigation, from memory, unverified)"],
};

const AMD_ZEN5: CpuDefaults = {
  ...AMD_ZEN4,
  retbleedUntrain: [false, "Zen 5 (family 1Ah) is listed neither for retbleed (families 15h-17h) nor for SRSO (17h, 19h) (common.c cpu_vuln_blacklist, from memory, unverified)"],
};

function defaultsFor(p: ResolvedProfile): { d: CpuDefaults; basis: string } {
  const ids = [p.id, ...(p.file.inheritedFrom ?? [])];
  if (ids.includes("zen5")) return { d: AMD_ZEN5, basis: "zen5" };
  if (ids.includes("zen4")) return { d: AMD_ZEN4, basis: "zen4" };
  if (ids.includes("skylake") || ids.includes("skylake-x")) return { d: INTEL_SKYLAKE, basis: "skylake" };
  // an unknown modern profile: the vendor's nearest known part (stated in the reasons)
  return p.vendor === "AuthenticAMD" ? { d: AMD_ZEN4, basis: "zen4 (vendor fallback)" } : { d: INTEL_SKYLAKE, basis: "skylake (vendor fallback)" };
}

function tri(o: PluginOptions, key: string): Tri {
  const v = o[key];
  return v === "on" || v === "off" ? v : "auto";
}

export function resolveMitigations(o: PluginOptions, p: ResolvedProfile): Mitigations {
  const { d, basis } = defaultsFor(p);
  const reasons: Record<string, string> = {};
  const pick = (key: keyof CpuDefaults & ("pti" | "rsbFill" | "ibpb" | "verw" | "retbleedUntrain")): boolean => {
    const t = tri(o, key);
    if (t === "auto") {
      reasons[key] = `auto (${basis}): ${d[key][1]}`;
      return d[key][0];
    }
    reasons[key] = `set to ${t} by the option`;
    return t === "on";
  };
  const pti = pick("pti");
  const sv = o["spectreV2"];
  let spectreV2: SpectreV2;
  if (sv === "retpoline" || sv === "ibrs" || sv === "eibrs" || sv === "off") {
    spectreV2 = sv;
    reasons["spectreV2"] = `set to ${sv} by the option`;
  } else {
    spectreV2 = d.spectreV2[0];
    reasons["spectreV2"] = `auto (${basis}): ${d.spectreV2[1]}`;
  }
  const pcid = o["pcid"] !== "off" && p.features.pcid;
  reasons["pcid"] = o["pcid"] === "off" ? "nopcid by the option" : p.features.pcid ? "the profile has PCID" : "the profile has no PCID";
  return {
    pti,
    pcid,
    spectreV2,
    dispatch: o["dispatch"] === "table" ? "table" : "switch",
    rsbFill: pick("rsbFill"),
    ibpb: pick("ibpb"),
    verw: pick("verw"),
    retbleedUntrain: pick("retbleedUntrain"),
    reasons,
  };
}
