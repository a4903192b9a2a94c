/**
 * The user pages a process's loop touches (machine/memory.ts loopPages: text, GOT, libc's syscall
 * stubs, stack) are walked again after every CR3 write: two processes passing a token pay four
 * TLB refills per switch; threads of one address space switch without a CR3 write and pay none.
 */
import { describe, expect, it } from "vitest";
import { LIBC_TEXT_BASE, loopPages, PAGE_SHIFT, USER_CODE_BASE, USER_DATA_BASE } from "../src/machine/memory.js";
import { pathCount, runExample } from "./harness.js";

describe("the user pages a loop touches", () => {
  it("are the program's text, its GOT's data page, libc's text and the stack page below esp", () => {
    const esp = 0xbffff123;
    expect(loopPages(esp)).toEqual([USER_CODE_BASE >>> PAGE_SHIFT, USER_DATA_BASE >>> PAGE_SHIFT, LIBC_TEXT_BASE >>> PAGE_SHIFT, (esp - 4) >>> PAGE_SHIFT]);
    expect(new Set(loopPages(esp)).size).toBe(4); // four distinct translations
  });

  it("two processes passing a token refill each page once per switch (the CR3 write dropped them)", () => {
    const r = runExample("lat_ctx", { cpu: "p6-coppermine", mhz: 1000, params: { iterations: 500 } });
    expect(r.error).toBeUndefined();
    const switches = pathCount(r, "switch_mm");
    expect(switches).toBeGreaterThan(1000);
    const refills = pathCount(r, "user_tlb_refill") + pathCount(r, "handler.tlb_refill");
    expect(refills).toBe(r.counters["tlb.misses"]);
    // four per switch, plus the first touches of each process and the pages its exit and fork touch
    expect(refills).toBeGreaterThanOrEqual(4 * switches);
    expect(refills).toBeLessThan(4 * switches + 40);
  });

  it("threads of one address space switch without a CR3 write and walk nothing again", () => {
    const r = runExample("ngpt_yield", { cpu: "p6-coppermine", mhz: 733, params: { threads: 4, yields: 300 } });
    expect(r.error).toBeUndefined();
    expect(pathCount(r, "schedule.switch")).toBeGreaterThan(1000);
    expect(pathCount(r, "switch_mm")).toBeLessThanOrEqual(1); // into the program's mm at the start, never between threads
    // the first touches only: three shared pages and a stack page per thread (and the main task's)
    expect(r.counters["tlb.misses"]).toBeLessThan(40);
  });
});
