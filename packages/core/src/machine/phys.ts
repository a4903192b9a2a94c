/**
 * Physical memory as the model lays it out, so the caches (cache.ts) see real set conflicts: the
 * kernel image at 1 MB (2.4's `_text` is 0xC0100000, physical 0x100000), and page frames handed
 * out from 4 MB upwards in the order the kernel asks for them (deterministic: the same run gives
 * the same layout). Addresses stay below 2 GB (line numbers fit a 32-bit int).
 */
export const PAGE_BYTES = 4096;
/** where the kernel image (text, then static data) starts */
export const KERNEL_TEXT_BASE = 0x00100000;
/** where page frames start: above the image (a 2.4 kernel image of the era is well under 3 MB) */
export const FRAMES_BASE = 0x00400000;
/** the direct map's large pages (PSE: 2.4 maps kernel memory with 4 MB pages) */
export const LARGE_PAGE_SHIFT = 22;

export class PhysAlloc {
  private nextFrame = FRAMES_BASE;
  private nextText = KERNEL_TEXT_BASE;
  private nextStatic = 0x00300000;

  /** `pages` contiguous page frames aligned to `alignPages` pages (__get_free_pages(order)); returns the address */
  pages(pages: number, alignPages = 1): number {
    const align = alignPages * PAGE_BYTES;
    const at = Math.ceil(this.nextFrame / align) * align;
    this.nextFrame = at + pages * PAGE_BYTES;
    if (this.nextFrame >= 0x7fff0000) throw new Error("the model's physical memory is exhausted (2 GB)");
    return at;
  }

  /** `bytes` of kernel text, 16-byte aligned (gcc aligns functions to 16 for the i686 kernels of the era) */
  text(bytes: number): number {
    const at = Math.ceil(this.nextText / 16) * 16;
    this.nextText = at + Math.max(1, bytes);
    return at;
  }

  /** `bytes` of the kernel's static data (runqueue_head, sys_call_table...), `align`-aligned */
  staticData(bytes: number, align = 32): number {
    const at = Math.ceil(this.nextStatic / align) * align;
    this.nextStatic = at + Math.max(1, bytes);
    return at;
  }
}
