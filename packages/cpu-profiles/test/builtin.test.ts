import { readFileSync, readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BUILTIN_HANDWRITTEN_SOURCES,
  BUILTIN_PROFILE_FILES,
  BUILTIN_PROFILE_IDS,
  BUILTIN_PROFILE_SOURCES,
  CALIBRATION_FIGURE_IDS,
  OP_CLASS_IDS,
  parseProfileFile,
  resolveInheritance,
  resolveProfile,
  serializeProfile,
  tryResolveInheritance,
  type CpuProfileFile,
} from "../src/index.js";

const PROFILE_DIR = new URL("../profiles/", import.meta.url);
const RUNNABLE = [
  "p5-p54c",
  "p6-pentium-pro",
  "p6-coppermine",
  "p6-katmai",
  "p4-northwood",
  "k7-palomino",
  "skylake",
  "skylake-x",
  "zen4",
  "zen5",
];

const byId = (id: string): CpuProfileFile => {
  const f = BUILTIN_PROFILE_FILES.find((p) => p.id === id);
  if (!f) throw new Error(`no builtin ${id}`);
  return f;
};

describe("shipped profiles", () => {
  it("are the runnable ids the design asks for; family files stay abstract", () => {
    expect([...BUILTIN_PROFILE_IDS]).toEqual(RUNNABLE);
    const abstract = BUILTIN_PROFILE_SOURCES.filter((s) => s.abstract).map((s) => s.id);
    expect(abstract).toEqual(["_family-p6"]);
  });

  it("every file on disk is listed in the builtins and parses from its text", () => {
    const files = readdirSync(PROFILE_DIR).filter((n) => n.endsWith(".json")).sort();
    expect(files.length).toBe(BUILTIN_PROFILE_SOURCES.length);
    const parsed = files.map((n) => parseProfileFile(readFileSync(new URL(n, PROFILE_DIR), "utf8"), n));
    expect(resolveInheritance(parsed).map((p) => p.id).sort()).toEqual([...RUNNABLE].sort());
  });

  it("files are laid out as serializeProfile writes them (calibration can rewrite without noise)", () => {
    for (const n of readdirSync(PROFILE_DIR).filter((x) => x.endsWith(".json"))) {
      const text = readFileSync(new URL(n, PROFILE_DIR), "utf8");
      expect(serializeProfile(JSON.parse(text)), n).toBe(text);
    }
  });

  for (const id of RUNNABLE) {
    describe(id, () => {
      const file = byId(id);

      it("resolves at its default clock, every preset and both ends of its range", () => {
        const clocks = [undefined, ...file.clock.presets, file.clock.minMhz, file.clock.maxMhz];
        for (const mhz of clocks) {
          const r = resolveProfile(file, mhz);
          expect(r.mhz).toBe(mhz ?? file.clock.defaultMhz);
          expect(r.id).toBe(id);
        }
      });

      it("costs every op class with a finite, non-negative cycle count", () => {
        const r = resolveProfile(file);
        for (const op of OP_CLASS_IDS) {
          expect(Number.isFinite(r.costs[op]), `${id}/${op}`).toBe(true);
          expect(r.costs[op]).toBeGreaterThanOrEqual(0);
          const e = file.costs[op];
          if (e.unavailable) {
            expect(r.costs[op]).toBe(0);
            expect(r.unavailableOps).toContain(op);
          } else {
            expect(r.unavailableOps).not.toContain(op);
          }
        }
      });

      it("every cost and geometry number names its source; fitted ones name existing figures", () => {
        for (const op of OP_CLASS_IDS) {
          const e = file.costs[op];
          expect(e.source.trim().length, `${id}/${op}`).toBeGreaterThan(10);
          if (e.kind === "fitted") {
            expect(e.fittedTo?.length, `${id}/${op} fittedTo`).toBeGreaterThan(0);
            for (const fig of e.fittedTo!) expect(CALIBRATION_FIGURE_IDS, `${id}/${op}`).toContain(fig);
          } else {
            expect(e.fittedTo).toBeUndefined();
          }
        }
        for (const [k, n] of Object.entries(file.geometry)) {
          expect(n.source.trim().length, `${id}/geometry/${k}`).toBeGreaterThan(10);
          expect(n.kind).not.toBe("fitted");
        }
      });

      it("has consistent features", () => {
        const x = file.features;
        const g = file.geometry;
        if (!x.fxsr) {
          expect(g.xsaveBytes.value).toBe(108);
          expect(x.sse || x.sse2 || x.xsave || x.avx).toBe(false);
          expect(file.costs.fxsave.unavailable && file.costs.fxrstor.unavailable).toBe(true);
        }
        if (x.xsave) {
          expect(x.fxsr).toBe(true);
          expect(g.xsaveBytes.value).toBeGreaterThan(512);
        } else {
          expect(file.costs.xsave_chunk.unavailable && file.costs.xrstor_chunk.unavailable).toBe(true);
        }
        if (x.fxsr && !x.xsave) expect(g.xsaveBytes.value).toBe(512);
        if (x.sse2) expect(x.sse).toBe(true);
        if (x.avx512) expect(x.avx && x.xsave).toBe(true);
        if (!x.sep) expect(file.costs.sysenter.unavailable && file.costs.sysexit.unavailable).toBe(true);
        if (!x.syscall) expect(file.costs.syscall.unavailable && file.costs.sysret.unavailable).toBe(true);
        expect(g.xmmRegs.value).toBe(!x.sse ? 0 : x.avx512 ? 32 : x.lm ? 16 : 8);
      });
    });
  }

  it("relative entries in the files show the value the loader computes from the file alone (fitted entries at their starting values)", () => {
    for (const f of resolveInheritance(BUILTIN_HANDWRITTEN_SOURCES)) {
      const src = BUILTIN_HANDWRITTEN_SOURCES.find((s) => s.id === f.id)!;
      for (const [op, e] of Object.entries(src.costs ?? {})) {
        if (e?.relativeTo) expect(e.cycles, `${f.id}/${op}`).toBe(f.costs[op as keyof typeof f.costs]!.cycles);
      }
    }
  });

  it("resolved profiles are accepted again as sources (a CpuProfileFile is a complete source)", () => {
    const again = tryResolveInheritance(BUILTIN_PROFILE_FILES);
    expect(again.errors).toEqual([]);
    expect(again.profiles.map((p) => p.id)).toEqual(RUNNABLE);
    expect(resolveProfile(again.profiles[3]!).costs).toEqual(resolveProfile(BUILTIN_PROFILE_FILES[3]!).costs);
  });

  it("the browser entry point imports nothing from Node", () => {
    const dir = new URL("../src/", import.meta.url);
    for (const n of readdirSync(dir).filter((x) => x.endsWith(".ts") && x !== "node.ts")) {
      const text = readFileSync(new URL(n, dir), "utf8");
      expect(text, n).not.toMatch(/from "node:|from "(fs|path|os)"|require\(|process\./);
    }
  });

  it("the Pentium Pro has the SEP bit problem written down and no SYSENTER", () => {
    const ppro = byId("p6-pentium-pro");
    expect(ppro.features.sep).toBe(false);
    expect(ppro.featureNotes?.sep).toMatch(/model < 3/);
    expect(ppro.cpuid).toMatchObject({ family: 6, model: 1 });
  });

  it("inherited entries say where they come from", () => {
    const x = byId("skylake-x");
    expect(x.inheritedFrom).toEqual(["skylake"]);
    expect(x.costs.rdtsc.inheritedFrom).toBe("skylake");
    expect(x.costs.syscall.inheritedFrom).toBeUndefined(); // restated for the server core
    expect(x.geometry.xsaveBytes.value).toBe(2696);
    expect(byId("zen5").costs.locked_op.kind).toBe("estimated"); // Zen 4 measurement restated
    expect(byId("p6-coppermine").inheritedFrom).toEqual(["_family-p6"]);
  });
});
