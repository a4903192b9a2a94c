/**
 * From the probe's raw loops to lmbench's figures, and the host facts beside them.
 *
 * The C program (probe/siglab-probe.c) times loops; the figures that lmbench derives by
 * subtraction are derived here, as lmbench derives them:
 *   - lat_sig catch ("Signal handler overhead") = the kill-and-catch loop minus the kill(me, 0)
 *     loop (bench_catch: the send loop's median per iteration is subtracted);
 *   - lat_sig prot ("Protection fault") = the fault loop minus the catch figure (bench_prot:
 *     "assume that they will cost the same as a normal catch");
 *   - lat_ctx ("Context switch 2p/0K") = the ring loop / 2 processes minus the overhead loop's
 *     median (a write and a read on the process's own pipe).
 * lmbench subtracts from its median; each repetition here has the baseline's median subtracted,
 * so the median is lmbench's figure and min and max show the spread of the loop measured. A
 * result below zero is 0, as lmbench's settime(0).
 */
import { readdirSync, readFileSync } from "node:fs";
import { release, type as osType } from "node:os";
import { join } from "node:path";

export interface ProbeLoop {
  id: string;
  what: string;
  perIterationUs: number[];
  iterations: number[];
}

/** The C program's document. */
export interface RawProbe {
  probe: number;
  repeat: number;
  enoughUs: number;
  host: {
    machine: string;
    release: string;
    cpusOnline: number;
    cpuPinned: number;
    cpuAcross: number;
    minSigStkSz: number;
    cpuid?: { vendor: string; family: number; model: number; stepping: number };
    xsave?: { supported: boolean; osxsave: boolean; xcr0?: string; features?: string[]; areaBytes?: number; maxAreaBytes?: number; instructions?: string[] };
  };
  loops: ProbeLoop[];
  skipped: { id: string; reason: string }[];
}

export interface ProbeFigure {
  id: string;
  /** lmbench's name of the figure */
  name: string;
  unit: "us";
  min: number;
  median: number;
  max: number;
  /** repetitions measured */
  repeat: number;
  /** iterations of the timed loop per repetition (the median repetition's count) */
  iterations: number;
  /** the lmbench3 source whose method it follows */
  source: string;
  /** how it is computed from the loops */
  method: string;
}

export interface Spread {
  min: number;
  median: number;
  max: number;
}

/** min, median (lmbench's save_median: the middle one, or the mean of the two middle ones) and max. */
export function spread(xs: readonly number[]): Spread {
  if (!xs.length) throw new Error("no values");
  const s = [...xs].sort((a, b) => a - b);
  const i = s.length >> 1;
  const median = s.length % 2 ? s[i]! : (s[i - 1]! + s[i]!) / 2;
  return { min: s[0]!, median, max: s[s.length - 1]! };
}

/** Each value less the baseline, never below 0 (lmbench's `settime(0)` when the difference is negative). */
export function minusBaseline(xs: readonly number[], baseline: number): number[] {
  return xs.map((x) => Math.max(0, x - baseline));
}

interface FigureDef {
  id: string;
  name: string;
  source: string;
  method: string;
  /** the loop whose repetitions make the figure */
  loop: string;
  /** per repetition, from that loop's values and the other loops */
  derive?: (xs: number[], loops: Map<string, ProbeLoop>) => number[];
}

const med = (loops: Map<string, ProbeLoop>, id: string): number => spread(need(loops, id).perIterationUs).median;
function need(loops: Map<string, ProbeLoop>, id: string): ProbeLoop {
  const l = loops.get(id);
  if (!l || !l.perIterationUs.length) throw new Error(`the probe's output has no '${id}' loop`);
  return l;
}
/** the catch figure's median: catch minus send */
const catchMedian = (loops: Map<string, ProbeLoop>): number => spread(minusBaseline(need(loops, "sig_catch").perIterationUs, med(loops, "sig_send"))).median;
const ctx2 = (xs: number[], loops: Map<string, ProbeLoop>): number[] => minusBaseline(xs.map((x) => x / 2), med(loops, "ctx_overhead"));

/** The figures in the order they are reported; ids are stable (suite host and calibrate read them). */
export const FIGURES: readonly FigureDef[] = [
  { id: "lat_syscall_null", name: "Simple syscall", source: "lat_syscall.c null", method: "getppid() in a loop", loop: "getppid" },
  { id: "lat_sig_install", name: "Signal handler installation", source: "lat_sig.c install", method: "sigaction(SIGUSR1) in a loop", loop: "sig_install" },
  { id: "lat_sig_catch", name: "Signal handler overhead", source: "lat_sig.c catch", method: "kill(me, SIGUSR1) caught by an empty handler, minus the kill(me, 0) loop's median", loop: "sig_catch", derive: (xs, l) => minusBaseline(xs, med(l, "sig_send")) },
  { id: "lat_sig_prot", name: "Protection fault", source: "lat_sig.c prot", method: "a write to a read-only MAP_SHARED file page, the SIGSEGV handler counts and returns (the write faults again), minus the catch figure's median", loop: "sig_prot", derive: (xs, l) => minusBaseline(xs, catchMedian(l)) },
  { id: "lat_pipe", name: "Pipe latency", source: "lat_pipe.c", method: "a byte there and back over two pipes between two processes on one CPU, per round trip", loop: "pipe" },
  { id: "lat_pipe_across", name: "Pipe latency, across CPUs", source: "lat_pipe.c", method: "as lat_pipe, the two processes on two CPUs", loop: "pipe_across" },
  { id: "lat_ctx_2p_0k", name: "Context switch 2p/0K", source: "lat_ctx.c 2 processes, -s 0", method: "a token around a ring of 2 processes on one CPU, per switch (loop / 2), minus the overhead loop's median (a write and a read on the process's own pipe)", loop: "ctx_2p", derive: ctx2 },
  { id: "lat_ctx_2p_0k_across", name: "Context switch 2p/0K, across CPUs", source: "lat_ctx.c 2 processes, -s 0", method: "as lat_ctx_2p_0k, the two processes on two CPUs", loop: "ctx_2p_across", derive: ctx2 },
  { id: "sigwaitinfo_wake", name: "Signal wake-up, sigwaitinfo", source: "none (lmbench's style)", method: "SIGUSR1 to a process blocked in sigwaitinfo, which sends SIGUSR2 back to the first, waiting in sigwaitinfo; one CPU, per round trip", loop: "sigwaitinfo" },
  { id: "sigsuspend_wake", name: "Signal wake-up, sigsuspend", source: "none (lmbench's style)", method: "as sigwaitinfo_wake with sigsuspend and an empty handler on each side; per round trip", loop: "sigsuspend" },
  { id: "gc_barrier", name: "SIGSEGV + mprotect barrier", source: "none (lat_sig prot's fault, a GC write barrier's handler)", method: "a write to a PROT_READ anonymous page, SIGSEGV, the handler mprotects it read-write, the write is retried, then mprotect PROT_READ again; per barrier", loop: "gc_barrier" },
  { id: "lat_proc_fork", name: "Process fork+exit", source: "lat_proc.c fork", method: "fork(), the child exit()s, the parent waitpid()s", loop: "fork" },
];

/** lmbench's figures from the probe's loops; a loop the probe skipped gives no figure. */
export function probeFigures(raw: RawProbe): ProbeFigure[] {
  const loops = new Map(raw.loops.map((l) => [l.id, l]));
  const out: ProbeFigure[] = [];
  for (const f of FIGURES) {
    const l = loops.get(f.loop);
    if (!l) continue;
    const xs = f.derive ? f.derive(l.perIterationUs, loops) : l.perIterationUs;
    const s = spread(xs);
    out.push({ id: f.id, name: f.name, unit: "us", min: round(s.min), median: round(s.median), max: round(s.max), repeat: xs.length, iterations: Math.round(spread(l.iterations).median), source: `lmbench3 src/${f.source}`.replace("lmbench3 src/none", "none"), method: f.method });
  }
  return out;
}

/** The figures the probe skipped, with its reason. */
export function skippedFigures(raw: RawProbe): { id: string; name: string; reason: string }[] {
  return raw.skipped.flatMap((s) => FIGURES.filter((f) => f.loop === s.id).map((f) => ({ id: f.id, name: f.name, reason: s.reason })));
}

const round = (x: number): number => Math.round(x * 10_000) / 10_000;

export interface HostFacts {
  cpuModel: string | null;
  microcode: string | null;
  vendor: string | null;
  cpuid: { family: number; model: number; stepping: number } | null;
  kernel: string;
  /** /proc/version */
  kernelVersion: string | null;
  machine: string;
  cpus: number;
  /** the CPU the probe pinned itself (and its partners of the pinned loops) to; the partner CPU of the across loops */
  cpuPinned: number;
  cpuAcross: number | null;
  /** /sys/devices/system/cpu/vulnerabilities/<name>: the kernel's line */
  mitigations: Record<string, string>;
  /** the XSAVE state components the OS enabled (XCR0), from cpuid/xgetbv; else /proc/cpuinfo's xsave flags */
  xsaveFeatures: string[];
  xcr0: string | null;
  /** bytes of the XSAVE area for the enabled components (what a signal frame holds) */
  xsaveAreaBytes: number | null;
  xsaveInstructions: string[];
  /** the kernel's AT_MINSIGSTKSZ (0 when it gives none) */
  minSigStkSz: number;
  /** /proc/cpuinfo flags of the first CPU */
  flags: string[];
  /**
   * Whether this is a virtual machine, and the evidence (detectVirtualization). null in a document
   * from before the field: unknown, not bare metal.
   */
  virtualization: HostVirtualization | null;
}

/** host.virtualization (the same shape as @siglab/core's common/host-virtualization.ts, which reads it back). */
export interface HostVirtualization {
  virtualized: boolean;
  /** one line per piece of evidence: the file and what it said */
  evidence: string[];
  /** the hypervisor the evidence names; null when none does (the cpuinfo flag alone) */
  hypervisor: string | null;
}

/** What detectVirtualization reads; null: the file is absent or unreadable (no evidence). */
export interface VirtualizationTexts {
  /** /proc/cpuinfo flags of the first CPU */
  flags: readonly string[];
  /** /sys/hypervisor/type */
  hypervisorType: string | null;
  /** /sys/class/dmi/id/sys_vendor and product_name */
  sysVendor: string | null;
  productName: string | null;
  /** /proc/cmdline */
  cmdline: string | null;
}

/** DMI vendor and product of a virtual machine: [vendor, product (or null: any), the hypervisor's name]. */
const DMI_GUESTS: readonly [RegExp, RegExp | null, string][] = [
  [/^QEMU$/i, null, "QEMU"],
  [/.*/, /^KVM$/i, "KVM"],
  [/^VMware/i, null, "VMware"],
  [/^Xen$/i, null, "Xen"],
  [/^Microsoft Corporation$/i, /^Virtual Machine$/i, "Microsoft Hyper-V"],
  // EC2's bare-metal instances (product "m5.metal", ...) have the vendor too
  [/^Amazon EC2$/i, /^(?!.*\.metal$)/i, "Amazon EC2"],
  [/^Google$/i, /^Google Compute Engine$/i, "Google Compute Engine"],
  [/^Firecracker$/i, null, "Firecracker"],
  [/.*/, /^Firecracker$/i, "Firecracker"],
  [/^innotek GmbH$|^Oracle Corporation$/i, /^VirtualBox$/i, "VirtualBox"],
  [/^Parallels/i, null, "Parallels"],
];

/** Kernel options only a guest has: [the option, the hypervisor]. */
const CMDLINE_GUESTS: readonly [RegExp, string][] = [
  [/^pvm_/, "PVM (paravirtualized, deprivileged guest kernel)"],
  [/^clocksource=kvm-clock$/, "KVM"],
  [/^clocksource=xen$/, "Xen"],
  [/^clocksource=hyperv_clocksource_tsc_page$/, "Microsoft Hyper-V"],
];

/**
 * Whether the probe's machine is a guest, from (a) the cpuinfo `hypervisor` flag (CPUID leaf 1
 * ECX bit 31, which hypervisors set), (b) /sys/hypervisor/type, (c) a DMI vendor or product of a
 * known hypervisor, (d) kernel options only a guest has. The hypervisor named is the most specific
 * the evidence gives: a PVM option first (its guest kernel runs deprivileged), then
 * /sys/hypervisor, DMI, the other options. No evidence: bare metal as far as these files say.
 */
export function detectVirtualization(t: VirtualizationTexts): HostVirtualization {
  const evidence: string[] = [];
  const names: { rank: number; name: string }[] = [];
  if (t.flags.includes("hypervisor")) evidence.push("/proc/cpuinfo flags: hypervisor");
  const type = t.hypervisorType?.trim();
  if (type) {
    evidence.push(`/sys/hypervisor/type: ${type.slice(0, 40)}`);
    names.push({ rank: 1, name: type.slice(0, 40) === "xen" ? "Xen" : type.slice(0, 40) });
  }
  const vendor = t.sysVendor?.trim() ?? "";
  const product = t.productName?.trim() ?? "";
  for (const [v, p, name] of DMI_GUESTS) {
    const vendorOk = vendor ? v.test(vendor) : v.source === ".*";
    const productOk = p === null ? Boolean(vendor) : Boolean(product) && p.test(product);
    if (!vendorOk || !productOk) continue;
    evidence.push(`/sys/class/dmi/id: ${[vendor && `sys_vendor "${vendor.slice(0, 60)}"`, product && `product_name "${product.slice(0, 60)}"`].filter(Boolean).join(", ")}`);
    names.push({ rank: 2, name });
    break;
  }
  // the kernel's own options: those before " -- " (the rest are init's)
  const kernelArgs = (t.cmdline ?? "").split(/\s+--(?:\s+|$)/)[0]!.split(/\s+/).filter(Boolean);
  for (const [re, name] of CMDLINE_GUESTS) {
    const hits = kernelArgs.filter((a) => re.test(a));
    if (!hits.length) continue;
    evidence.push(`/proc/cmdline: ${hits.slice(0, 4).join(" ").slice(0, 120)}`);
    names.push({ rank: name.startsWith("PVM") ? 0 : 3, name });
  }
  names.sort((a, b) => a.rank - b.rank);
  return { virtualized: evidence.length > 0, evidence, hypervisor: names[0]?.name ?? null };
}

function readOr(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** `key: value` of the first processor in /proc/cpuinfo. */
export function cpuinfoField(cpuinfo: string, key: string): string | null {
  for (const line of cpuinfo.split("\n")) {
    if (!line.trim()) break;
    const i = line.indexOf(":");
    if (i > 0 && line.slice(0, i).trim() === key) return line.slice(i + 1).trim();
  }
  return null;
}

export function readMitigations(dir = "/sys/devices/system/cpu/vulnerabilities"): Record<string, string> {
  const out: Record<string, string> = {};
  let names: string[] = [];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return out;
  }
  for (const n of names) {
    const t = readOr(join(dir, n));
    if (t !== null) out[n] = t.trim();
  }
  return out;
}

/** The files hostFacts reads (tests give fixtures); an unreadable one is no evidence. */
export interface HostFactFiles {
  cpuinfo?: string;
  version?: string;
  vulnerabilities?: string;
  /** /sys/hypervisor/type */
  hypervisorType?: string;
  /** /sys/class/dmi/id/sys_vendor and product_name */
  sysVendor?: string;
  productName?: string;
  /** /proc/cmdline */
  cmdline?: string;
}

export function hostFacts(raw: RawProbe, files: HostFactFiles = {}): HostFacts {
  const cpuinfo = readOr(files.cpuinfo ?? "/proc/cpuinfo") ?? "";
  const flags = (cpuinfoField(cpuinfo, "flags") ?? cpuinfoField(cpuinfo, "Features") ?? "").split(/\s+/).filter(Boolean);
  const x = raw.host.xsave;
  const xsaveFromFlags = flags.filter((f) => /^xsave|^xgetbv|^avx512f$|^avx$|^pku$|^amx/.test(f));
  return {
    cpuModel: cpuinfoField(cpuinfo, "model name"),
    microcode: cpuinfoField(cpuinfo, "microcode"),
    vendor: raw.host.cpuid?.vendor ?? cpuinfoField(cpuinfo, "vendor_id"),
    cpuid: raw.host.cpuid ? { family: raw.host.cpuid.family, model: raw.host.cpuid.model, stepping: raw.host.cpuid.stepping } : null,
    kernel: `${osType()} ${raw.host.release || release()}`,
    kernelVersion: readOr(files.version ?? "/proc/version")?.trim() ?? null,
    machine: raw.host.machine,
    cpus: raw.host.cpusOnline,
    cpuPinned: raw.host.cpuPinned,
    cpuAcross: raw.host.cpuAcross >= 0 ? raw.host.cpuAcross : null,
    mitigations: readMitigations(files.vulnerabilities),
    xsaveFeatures: x?.features ?? xsaveFromFlags,
    xcr0: x?.xcr0 ?? null,
    xsaveAreaBytes: x?.areaBytes ?? null,
    xsaveInstructions: x?.instructions ?? flags.filter((f) => /^xsave/.test(f)),
    minSigStkSz: raw.host.minSigStkSz,
    flags,
    virtualization: detectVirtualization({
      flags,
      hypervisorType: readOr(files.hypervisorType ?? "/sys/hypervisor/type"),
      sysVendor: readOr(files.sysVendor ?? "/sys/class/dmi/id/sys_vendor"),
      productName: readOr(files.productName ?? "/sys/class/dmi/id/product_name"),
      cmdline: readOr(files.cmdline ?? "/proc/cmdline"),
    }),
  };
}

/** Refuses a document that is not the probe's (a stale or foreign binary). */
export function checkRawProbe(doc: unknown): RawProbe {
  const d = doc as Partial<RawProbe> | null;
  if (!d || d.probe !== 1 || !Array.isArray(d.loops) || !d.host || !Array.isArray(d.skipped)) throw new Error("the probe's output is not the document this version of siglab reads");
  for (const l of d.loops) {
    if (typeof l?.id !== "string" || !Array.isArray(l.perIterationUs) || !l.perIterationUs.every((v) => Number.isFinite(v) && v >= 0)) throw new Error(`the probe's loop '${String(l?.id)}' has no valid measurements`);
  }
  return d as RawProbe;
}
