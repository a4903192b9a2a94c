/**
 * Footprint.user (kernel/footprint.ts): one region per address space, address and size, whatever
 * order they are asked in (it keeps its last answer for a signal frame's setup and sigreturn).
 */
import { describe, expect, it } from "vitest";
import { Footprint } from "../src/kernel/footprint.js";

describe("Footprint.user", () => {
  it("answers the same region for the same address space, address and size, and another one otherwise", () => {
    const f = new Footprint(undefined, false);
    const a = f.user(1, 0xbfff0000, 760);
    expect(f.user(1, 0xbfff0000, 760)).toBe(a); // the last answer
    const otherMm = f.user(2, 0xbfff0000, 760);
    const otherSize = f.user(2, 0xbfff0000, 700);
    const otherAddress = f.user(1, 0xbffe0000, 760);
    for (const r of [otherMm, otherSize, otherAddress]) expect(r).not.toBe(a);
    expect(otherMm.base).not.toBe(a.base); // two processes' pages do not share frames
    expect([otherSize.base, otherSize.bytes]).toEqual([otherMm.base, 700]);
    expect(f.user(1, 0xbfff0000, 760)).toBe(a); // from the table, after other answers
    expect(f.user(2, 0xbfff0000, 760)).toBe(otherMm);
  });
});
