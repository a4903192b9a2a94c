/**
 * The kernel as this machine runs it: the linux-6 preset's options read off the probe's host facts
 * (the lines of /sys/devices/system/cpu/vulnerabilities/* and /proc/cpuinfo's flags), so that
 * `suite host` and `calibrate --from-probe` simulate the mitigations the measured kernel has on,
 * not the defaults a kernel would pick for the matched profile. A guest kernel, for one, may run
 * page-table isolation on an AMD part, or lack PCID because the hypervisor hides it.
 *
 * Common code (no DOM, no Node): the CLI and the app's "your machine" panel both use it.
 * The strings are those arch/x86/kernel/cpu/bugs.c prints (cpu_show_common and the *_strings
 * tables); an unrecognised line leaves the option at "auto" and says so.
 */
import type { VariantSpec } from "@siglab/plugin-api";

/** What the mapping reads of `siglab probe --json`'s host facts (apps/cli/src/probe/figures.ts). */
export interface HostKernelFacts {
  /** /sys/devices/system/cpu/vulnerabilities/<name>: the kernel's line */
  mitigations?: Record<string, string> | null;
  /** /proc/cpuinfo flags of the first CPU */
  flags?: string[] | null;
  /** `uname -r`-like kernel name and /proc/version */
  kernel?: string | null;
  kernelVersion?: string | null;
}
/** The plugin whose options these are (the linux-6 preset's kernel). */
export const LINUX6_PLUGIN = "linux6";

export interface HostKernel {
  /** linux6 options set from the host (the others stay "auto") */
  options: Record<string, string>;
  /** one line per option: which host line set it, or why it stays auto */
  reasons: string[];
}

const CLEAR_BUFFERS = ["mds", "tsx_async_abort", "mmio_stale_data", "reg_file_data_sampling", "tsa"];

/** Linux's version as [major, minor] from `uname -r` or /proc/version ("Linux 6.18.44-..."). */
function kernelVersion(h: HostKernelFacts): [number, number] | null {
  const m = /(\d+)\.(\d+)/.exec(`${h.kernel ?? ""} ${h.kernelVersion ?? ""}`);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

export function hostKernelOptions(h: HostKernelFacts): HostKernel {
  const options: Record<string, string> = {};
  const reasons: string[] = [];
  const vuln = h.mitigations && typeof h.mitigations === "object" ? h.mitigations : {};
  const line = (name: string): string | null => (typeof vuln[name] === "string" ? vuln[name].trim() : null);
  const set = (key: string, value: string, why: string) => {
    options[key] = value;
    reasons.push(`${key}=${value}: ${why}`);
  };

  const meltdown = line("meltdown");
  if (meltdown === null) reasons.push("pti=auto: the probe reports no meltdown line");
  else if (/PTI/.test(meltdown)) set("pti", "on", `meltdown: "${meltdown}"`);
  else if (/^Not affected|^Vulnerable/.test(meltdown)) set("pti", "off", `meltdown: "${meltdown}"`);
  else reasons.push(`pti=auto: meltdown line not recognised ("${meltdown}")`);

  const flags = Array.isArray(h.flags) ? h.flags : [];
  if (flags.length && !flags.includes("pcid")) set("pcid", "off", "the CPU flags have no pcid (a hypervisor may hide it): every PTI CR3 write flushes the TLB");
  else if (flags.length) reasons.push("pcid=auto: the CPU flags have pcid");

  const v2 = line("spectre_v2");
  if (v2 === null) reasons.push("spectreV2=auto: the probe reports no spectre_v2 line");
  else {
    // the mitigation is the line's first clause ("Mitigation: Retpolines; STIBP: ...; PBRSB-eIBRS: Not affected")
    const head = v2.split(";")[0]!;
    const how = /Enhanced|Automatic IBRS|AutoIBRS|eIBRS/i.test(head) ? "eibrs" : /Retpoline/i.test(head) ? "retpoline" : /Mitigation: IBRS/.test(head) ? "ibrs" : /^Vulnerable/.test(head) ? "off" : null;
    if (how) set("spectreV2", how, `spectre_v2: "${v2}"`);
    else reasons.push(`spectreV2=auto: spectre_v2 line not recognised ("${v2}")`);
    if (/RSB filling/.test(v2)) set("rsbFill", "on", `spectre_v2 reports "RSB filling"`);
    else if (how) set("rsbFill", "off", `spectre_v2 reports no "RSB filling"`);
    if (/IBPB: always-on/.test(v2)) set("ibpb", "on", `spectre_v2 reports "IBPB: always-on"`);
    else if (/IBPB: (conditional|disabled)/.test(v2)) set("ibpb", "off", `spectre_v2 reports IBPB ${/conditional/.test(v2) ? "conditional (only tasks that ask)" : "disabled"}`);
  }
  // retpolines matter only for the older indirect dispatch through sys_call_table (before 6.9)
  const ver = kernelVersion(h);
  if (ver) set("dispatch", ver[0] > 6 || (ver[0] === 6 && ver[1] >= 9) ? "switch" : "table", `kernel ${ver[0]}.${ver[1]}: ${ver[0] > 6 || (ver[0] === 6 && ver[1] >= 9) ? "x64_sys_call's switch (6.9+)" : "an indirect call through sys_call_table (before 6.9)"}`);

  const clear = CLEAR_BUFFERS.map((n) => [n, line(n)] as const).filter(([, l]) => l !== null);
  if (clear.length) {
    const on = clear.find(([, l]) => /Clear CPU buffers/i.test(l!));
    if (on) set("verw", "on", `${on[0]}: "${on[1]}"`);
    else set("verw", "off", `no line of ${clear.map(([n]) => n).join(", ")} says "Clear CPU buffers"`);
  } else reasons.push("verw=auto: the probe reports none of the buffer-clearing lines");

  const untrain = [["spec_rstack_overflow", line("spec_rstack_overflow")], ["retbleed", line("retbleed")]] as const;
  const seen = untrain.filter(([, l]) => l !== null);
  if (seen.length) {
    const on = seen.find(([, l]) => /Safe RET|untrained return thunk|Mitigation: (IBPB|SMT)/i.test(l!) && !/^Vulnerable/.test(l!));
    if (on) set("retbleedUntrain", "on", `${on[0]}: "${on[1]}"`);
    else set("retbleedUntrain", "off", seen.map(([n, l]) => `${n}: "${l}"`).join("; "));
  } else reasons.push("retbleedUntrain=auto: the probe reports neither retbleed nor spec_rstack_overflow");
  return { options, reasons };
}

/** The preset's stack with the host's options on its linux6 entry (the user's explicit ones win). */
export function withHostKernel(stack: readonly VariantSpec[], k: HostKernel): VariantSpec[] {
  return stack.map((v) => (v.id === LINUX6_PLUGIN ? { ...v, options: { ...k.options, ...(v.options ?? {}) } } : v));
}
