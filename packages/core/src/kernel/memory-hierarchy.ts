/**
 * (No single Linux counterpart: what the hardware charges the kernel's memory accesses, which
 * Linux leaves to the CPU.) The kernel's text laid out for the instruction caches, and the data
 * reads, writes and bulk copies of footprint.ts's regions charged at the level they come from
 * (machine/cache.ts). Without cache geometry in the profile nothing here charges anything.
 */
import type { CompiledPath } from "../exec/executor.js";
import type { PathDef } from "../exec/path.js";
import type { PathRegistry } from "../exec/registry.js";
import { USER_PHASES } from "../exec/code-size.js";
import type { Region } from "../machine/cache.js";
import { KERNEL_TEXT_BASE, LARGE_PAGE_SHIFT } from "../machine/phys.js";
import type { KernelCore } from "./core.js";
import { USER_FRAMES_BASE } from "./footprint.js";
import { pathRefs } from "./path-refs.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["kernel_tlb_refill"]);

/** The paths that charge a data line by the level it came from. */
interface LinePaths {
  dcacheL2: CompiledPath;
  dcacheMem: CompiledPath;
  copyL2: CompiledPath;
  copyMem: CompiledPath;
}

export class MemoryHierarchy {
  /** the CPU keeps no global pages (the Pentium): CR3 writes drop the kernel's translations too */
  private readonly pgeLess: boolean;
  private readonly lines: LinePaths | null = null;

  constructor(private readonly k: KernelCore, private readonly paths: PathRegistry) {
    this.pgeLess = !k.profile.features.pge;
    if (!k.profile.caches) return;
    this.layOutText();
    this.lines = { dcacheL2: k.path("dcache.l2"), dcacheMem: k.path("dcache.memory"), copyL2: k.path("copy.l2_lines"), copyMem: k.path("copy.memory_lines") };
  }

  /** Kernel text for every compiled path (in compile order) and the paths that charge a code miss. */
  private layOutText(): void {
    const k = this.k;
    const layout = (d: PathDef): Region[] | null => (USER_PHASES.has(d.phase) || d.phase.startsWith("cache.") || d.phase === "tlb.refill" ? null : k.foot.functionsOf(d));
    for (const c of this.paths.all()) c.code = layout(c.def);
    this.paths.codeLayout = layout;
    const decode = Number.isFinite(k.profile.costs.decode_line) ? k.path("icache.decode") : null;
    k.ex.codeMiss = { l2: k.path("icache.l2"), memory: k.path("icache.memory"), decode };
    k.ex.mem = k.cpu.caches;
    k.ex.idtFlushesL1i = k.profile.caches?.l1iClearedByInterrupt === true;
    if (this.pgeLess) k.ex.kernelTextTlb = () => {
      if (k.cpu.tlb.touchKernel(KERNEL_TEXT_BASE >>> LARGE_PAGE_SHIFT)) k.runRef(P["kernel_tlb_refill"]);
    };
  }

  /** KernelCore.touch: the lines of `r` this CPU's L1D lost come back from L2 or memory. */
  touch(r: Region, write: boolean): void {
    const k = this.k;
    if (this.pgeLess && r.base < USER_FRAMES_BASE && k.cpu.tlb.touchKernel(r.base >>> LARGE_PAGE_SHIFT)) k.runRef(P["kernel_tlb_refill"]);
    const m = k.cpu.caches;
    if (m === null || r.seenD === m.l1d.changes) return;
    if (m.touchData(r, write) === 0) return;
    if (m.fromL2 !== 0) k.ex.runN(this.lines!.dcacheL2, m.fromL2);
    if (m.fromMemory !== 0) k.ex.runN(this.lines!.dcacheMem, m.fromMemory);
  }

  /**
   * KernelCore.copyTraffic: the lines neither L1 holds move at the transfer rate of the level they
   * come from (the copy's misses overlap). A written line from memory moves twice (the read for
   * ownership and, later, its write-back); without write allocation (the Pentium) it goes to
   * memory once and stays out of L1. The per-line L1 cost is the caller's own path.
   */
  copyTraffic(src: Region | null, dst: Region | null): void {
    const m = this.k.cpu.caches;
    if (m === null) return;
    let l2 = 0, mem = 0;
    if (src !== null && src.seenD !== m.l1d.changes && m.touchData(src) > 0) {
      l2 += m.fromL2;
      mem += m.fromMemory;
    }
    if (dst !== null && dst.seenD !== m.l1d.changes) {
      if (m.shape.l1dWriteAllocate) {
        if (m.touchData(dst, true) > 0) {
          l2 += m.fromL2;
          mem += 2 * m.fromMemory;
        }
      } else mem += m.linesMissing(dst);
    }
    if (l2 !== 0) this.k.ex.runN(this.lines!.copyL2, l2);
    if (mem !== 0) this.k.ex.runN(this.lines!.copyMem, mem);
  }
}
