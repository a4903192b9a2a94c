/**
 * Semantic checks the JSON Schema cannot express: provenance rules per entry, clock range, feature
 * consistency (FXSR, SSE, XSAVE, AVX…) and which ops a CPU lacks. Each returns issues; the caller
 * wraps them in a ProfileError naming the file.
 */
import type { ProfileIssue } from "./errors.js";
import type { OpClass } from "./op-classes.js";
import type { CostEntry, CpuFeatures, CpuProfileFile, CpuProfileSource } from "./types.js";

/** The feature an op needs; the op must be marked `unavailable` exactly when the feature is off. */
export const OP_FEATURE: Partial<Record<OpClass, keyof CpuFeatures>> = {
  fxsave: "fxsr",
  fxrstor: "fxsr",
  fxsr_convert_reg: "fxsr",
  xsave_chunk: "xsave",
  xrstor_chunk: "xsave",
  sysenter: "sep",
  sysexit: "sep",
  syscall: "syscall",
  sysret: "syscall",
  sse_memcpy_line: "sse",
};

function entryIssues(op: string, e: CostEntry): ProfileIssue[] {
  const at = `/costs/${op}`;
  const out: ProfileIssue[] = [];
  if (e.kind === "fitted" && !(e.fittedTo && e.fittedTo.length > 0)) {
    out.push({ path: `${at}/fittedTo`, message: "a fitted cost must name the calibration figures it is fitted to" });
  }
  if (e.kind !== "fitted" && e.fittedTo !== undefined) {
    out.push({ path: `${at}/fittedTo`, message: `fittedTo is only allowed with kind "fitted" (kind is "${e.kind}")` });
  }
  if (e.unavailable) {
    if (e.cycles !== 0) out.push({ path: `${at}/cycles`, message: "an unavailable op must cost 0 cycles" });
    if (e.relativeTo) out.push({ path: `${at}/relativeTo`, message: "an unavailable op cannot be relative to another" });
    if (e.kind === "fitted") out.push({ path: `${at}/kind`, message: "an unavailable op cannot be fitted" });
  }
  if (e.relativeTo) {
    if (e.kind !== "estimated" && e.kind !== "derived") {
      out.push({ path: `${at}/kind`, message: `a relative cost must be "estimated" or "derived" (kind is "${e.kind}")` });
    }
    if (e.relativeTo.op === op) out.push({ path: `${at}/relativeTo/op`, message: "a cost cannot be relative to itself" });
  }
  return out;
}

/** Checks on a file as written (before inheritance). */
export function sourceIssues(src: CpuProfileSource): ProfileIssue[] {
  const out: ProfileIssue[] = [];
  if (src.id.startsWith("_") && !src.abstract) {
    out.push({ path: "/id", message: `ids starting with "_" are reserved for abstract profiles (add "abstract": true)` });
  }
  if (src.inherits === src.id) out.push({ path: "/inherits", message: "a profile cannot inherit itself" });
  for (const [op, e] of Object.entries(src.costs ?? {})) if (e) out.push(...entryIssues(op, e));
  return out;
}

function clockIssues(f: CpuProfileFile): ProfileIssue[] {
  const { minMhz, maxMhz, defaultMhz, presets } = f.clock;
  const out: ProfileIssue[] = [];
  if (minMhz > maxMhz) out.push({ path: "/clock/minMhz", message: `minMhz ${minMhz} is above maxMhz ${maxMhz}` });
  if (defaultMhz < minMhz || defaultMhz > maxMhz) {
    out.push({ path: "/clock/defaultMhz", message: `defaultMhz ${defaultMhz} is outside [${minMhz}, ${maxMhz}]` });
  }
  presets.forEach((p, i) => {
    if (p < minMhz || p > maxMhz) out.push({ path: `/clock/presets/${i}`, message: `preset ${p} MHz is outside [${minMhz}, ${maxMhz}]` });
  });
  return out;
}

function featureIssues(f: CpuProfileFile): ProfileIssue[] {
  const x = f.features;
  const g = f.geometry;
  const out: ProfileIssue[] = [];
  const need = (cond: boolean, path: string, message: string) => {
    if (!cond) out.push({ path, message });
  };
  need(!x.sse || x.fxsr, "/features/sse", "SSE requires FXSR (fxsave/fxrstor hold the XMM state)");
  need(!x.sse2 || x.sse, "/features/sse2", "SSE2 requires SSE");
  need(!x.xsave || x.fxsr, "/features/xsave", "XSAVE requires FXSR (its legacy area is the FXSAVE image)");
  need(!x.xsaveopt || x.xsave, "/features/xsaveopt", "XSAVEOPT requires XSAVE");
  need(!x.xsaves || x.xsave, "/features/xsaves", "XSAVES requires XSAVE");
  need(!x.avx || (x.xsave && x.sse2), "/features/avx", "AVX requires XSAVE and SSE2");
  need(!x.avx512 || x.avx, "/features/avx512", "AVX-512 requires AVX");
  need(!x.pcid || x.lm === true, "/features/pcid", "PCID is only usable in long mode (set features.lm)");
  const bytes = g.xsaveBytes.value;
  if (!x.fxsr) need(bytes === 108, "/geometry/xsaveBytes/value", `without FXSR the FPU save area is the 108-byte FSAVE image (got ${bytes})`);
  else if (!x.xsave) need(bytes === 512, "/geometry/xsaveBytes/value", `with FXSR and no XSAVE the save area is the 512-byte FXSAVE image (got ${bytes})`);
  else need(bytes >= 576, "/geometry/xsaveBytes/value", `an XSAVE area is at least 576 bytes (512 legacy + 64 header) (got ${bytes})`);
  const xmm = g.xmmRegs.value;
  if (!x.sse) need(xmm === 0, "/geometry/xmmRegs/value", `without SSE there are no XMM registers (got ${xmm})`);
  else if (x.avx512 && x.lm) need(xmm === 32, "/geometry/xmmRegs/value", `AVX-512 in long mode has 32 XMM registers (got ${xmm})`);
  else if (x.lm) need(xmm === 16, "/geometry/xmmRegs/value", `SSE in long mode has 16 XMM registers (got ${xmm})`);
  else need(xmm === 8, "/geometry/xmmRegs/value", `SSE in 32-bit mode has 8 XMM registers (got ${xmm})`);
  const line = g.cacheLineBytes.value;
  need(Number.isInteger(Math.log2(line)), "/geometry/cacheLineBytes/value", `a cache line is a power of two bytes (got ${line})`);
  return out;
}

function availabilityIssues(f: CpuProfileFile): ProfileIssue[] {
  const out: ProfileIssue[] = [];
  for (const [op, feature] of Object.entries(OP_FEATURE) as [OpClass, keyof CpuFeatures][]) {
    const has = f.features[feature] === true;
    const e = f.costs[op];
    if (!e) continue;
    if (has && e.unavailable) {
      out.push({ path: `/costs/${op}/unavailable`, message: `${op} is marked unavailable but features.${feature} is true` });
    } else if (!has && !e.unavailable) {
      out.push({ path: `/costs/${op}`, message: `features.${feature} is false, so ${op} must be marked "unavailable": true with 0 cycles` });
    }
  }
  for (const [op, e] of Object.entries(f.costs) as [OpClass, CostEntry][]) {
    const base = e.relativeTo ? f.costs[e.relativeTo.op] : undefined;
    if (base?.unavailable) {
      out.push({ path: `/costs/${op}/relativeTo/op`, message: `${op} is relative to ${e.relativeTo!.op}, which this CPU lacks` });
    }
  }
  return out;
}

/** Checks on a resolved (complete) profile. */
export function resolvedIssues(f: CpuProfileFile): ProfileIssue[] {
  const out = [...clockIssues(f), ...featureIssues(f), ...availabilityIssues(f)];
  for (const [op, e] of Object.entries(f.costs)) out.push(...entryIssues(op, e));
  return out;
}
