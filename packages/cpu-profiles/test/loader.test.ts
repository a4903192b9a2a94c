import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  BUILTIN_PROFILE_FILES,
  BUILTIN_PROFILE_SOURCES,
  CpuRefError,
  ProfileCatalog,
  ProfileError,
  checkResolvedProfile,
  formatCpuRef,
  parseCpuRef,
  parseProfileFile,
  resolveInheritance,
  resolveProfile,
  tryResolveInheritance,
  type CpuProfileSource,
} from "../src/index.js";

const P4_TEXT = readFileSync(new URL("../profiles/p4-northwood.json", import.meta.url), "utf8");
const p4Json = () => JSON.parse(P4_TEXT) as Record<string, any>;

function errorOf(fn: () => unknown): ProfileError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ProfileError) return err;
    throw err;
  }
  throw new Error("expected a ProfileError");
}

describe("parseProfileFile", () => {
  it("names the file, line and column of bad JSON", () => {
    const text = P4_TEXT.replace(`"vendor": "GenuineIntel",`, `"vendor": "GenuineIntel",,`);
    const e = errorOf(() => parseProfileFile(text, "p4-northwood.json"));
    expect(e.file).toBe("p4-northwood.json");
    expect(e.message).toMatch(/^p4-northwood\.json: invalid JSON at line 5, column \d+/);
  });

  it("names file and JSON path of a field with the wrong type", () => {
    const j = p4Json();
    j.costs.fxsave.cycles = "fast";
    const e = errorOf(() => parseProfileFile(JSON.stringify(j), "p4-northwood.json"));
    expect(e.message.split("\n")[0]).toBe("p4-northwood.json: /costs/fxsave/cycles: expected number");
    expect(e.path).toBe("/costs/fxsave/cycles");
    expect(e.profileId).toBe("p4-northwood");
  });

  it("rejects unknown op classes, unknown fields and bad provenance kinds with their paths", () => {
    const j = p4Json();
    j.costs.fxsave_fast = { cycles: 1, kind: "estimated", source: "x" };
    j.costs.cli.kind = "guessed";
    j.geometry.l1dKB.units = "KB";
    const e = errorOf(() => parseProfileFile(JSON.stringify(j), "mine.json"));
    expect(e.message).toContain('mine.json: /costs/fxsave_fast: unknown op class "fxsave_fast"');
    expect(e.message).toContain('mine.json: /costs/cli/kind: expected one of "sourced", "derived", "fitted", "estimated", got "guessed"');
    expect(e.message).toContain('mine.json: /geometry/l1dKB/units: unknown field "units"');
  });

  it("requires fittedTo on fitted costs and 0 cycles on unavailable ones", () => {
    const j = p4Json();
    delete j.costs.int_gate.fittedTo;
    j.costs.syscall.cycles = 40;
    j.costs.cli.fittedTo = ["p3-getpid-loop-cli"];
    const e = errorOf(() => parseProfileFile(JSON.stringify(j), "p4.json"));
    expect(e.message).toContain("p4.json: /costs/int_gate/fittedTo: a fitted cost must name the calibration figures");
    expect(e.message).toContain("p4.json: /costs/syscall/cycles: an unavailable op must cost 0 cycles");
    expect(e.message).toContain('p4.json: /costs/cli/fittedTo: fittedTo is only allowed with kind "fitted"');
  });

  it("rejects ids that cannot be used in id@MHz references", () => {
    const e = errorOf(() => parseProfileFile(JSON.stringify({ id: "p4@2200" }), "x.json"));
    expect(e.message).toMatch(/^x\.json: \/id: "p4@2200" is not a valid id/);
    const u = errorOf(() => parseProfileFile(JSON.stringify({ id: "_base" }), "base.json"));
    expect(u.message).toContain('base.json: /id: ids starting with "_" are reserved for abstract profiles');
  });

  it("rejects a non-object and an oversized file", () => {
    expect(errorOf(() => parseProfileFile("[1,2]", "a.json")).message).toBe("a.json: expected a JSON object");
    expect(errorOf(() => parseProfileFile(" ".repeat(1_000_001), "big.json")).message).toMatch(/^big\.json: file too large/);
  });
});

describe("resolveInheritance", () => {
  const base = { base: BUILTIN_PROFILE_SOURCES };

  it("merges child over parent: costs per op, features per key, and annotates what was inherited", () => {
    const child = parseProfileFile(
      JSON.stringify({
        id: "p4-fast-cli",
        inherits: "p4-northwood",
        name: "P4 with a fast cli",
        features: { pcid: false },
        costs: { cli: { cycles: 5, kind: "estimated", source: "what-if experiment" } },
      }),
      "p4-fast-cli.json",
    );
    const [r] = resolveInheritance([child], base);
    expect(r!.id).toBe("p4-fast-cli");
    expect(r!.name).toBe("P4 with a fast cli");
    expect(r!.inherits).toBeUndefined();
    expect(r!.inheritedFrom).toEqual(["p4-northwood"]);
    expect(r!.costs.cli).toEqual({ cycles: 5, kind: "estimated", source: "what-if experiment" });
    expect(r!.costs.sti.cycles).toBe(43);
    expect(r!.costs.sti.inheritedFrom).toBe("p4-northwood");
    expect(r!.features.sse2).toBe(true);
    expect(r!.clock.defaultMhz).toBe(2200);
  });

  it("recomputes relative costs from the resolved base op (calibration of a fitted value carries over)", () => {
    const child = parseProfileFile(
      JSON.stringify({
        id: "p4-recalibrated",
        inherits: "p4-northwood",
        costs: {
          iret_user: { cycles: 700, kind: "fitted", source: "recalibrated", fittedTo: ["p4-int80-vs-sysenter"] },
          write_cr0: { cycles: 200, kind: "fitted", source: "recalibrated", fittedTo: ["p4-lat-ctx-2p-0k"] },
        },
      }),
      "p4-recalibrated.json",
    );
    const r = resolveProfile(resolveInheritance([child], base)[0]!);
    expect(r.costs.iret_kernel).toBe(350); // iret_user × 0.5
    expect(r.costs.clts).toBe(125); // write_cr0 × 0.625
    expect(r.costs.read_cr0).toBe(50);
  });

  it("names the op AND the profile when an op cost is missing after inheritance", () => {
    const j = p4Json();
    delete j.costs.fxsave;
    j.id = "my-p4";
    const src = parseProfileFile(JSON.stringify(j), "my-p4.json");
    const e = errorOf(() => resolveInheritance([src]));
    expect(e.message).toBe('my-p4.json: /costs/fxsave: profile "my-p4" has no cost for op class "fxsave"');
    expect(e.profileId).toBe("my-p4");

    const family = parseProfileFile(JSON.stringify({ id: "_fam", abstract: true, costs: {} }), "_fam.json");
    const child = parseProfileFile(JSON.stringify({ ...p4Json(), id: "kid", inherits: "_fam", costs: {} }), "kid.json");
    const e2 = errorOf(() => resolveInheritance([family, child]));
    expect(e2.message).toContain('kid.json: /costs/int_gate: profile "kid" has no cost for op class "int_gate" (nor does any profile it inherits from: _fam)');
    expect(e2.issues.length).toBeGreaterThan(50);
  });

  it("names the file of an unknown parent and of an inheritance cycle", () => {
    const orphan = parseProfileFile(JSON.stringify({ id: "orphan", inherits: "p9-nonexistent" }), "orphan.json");
    const e = errorOf(() => resolveInheritance([orphan], base));
    expect(e.message).toMatch(/^orphan\.json: \/inherits: unknown profile "p9-nonexistent" \(known: .*p4-northwood/);

    const a = parseProfileFile(JSON.stringify({ id: "a", inherits: "b" }), "a.json");
    const b = parseProfileFile(JSON.stringify({ id: "b", inherits: "a" }), "b.json");
    expect(errorOf(() => resolveInheritance([a, b])).message).toBe("a.json: /inherits: inheritance cycle a → b → a");
  });

  it("reports a duplicate id and keeps resolving the other profiles", () => {
    const dup = parseProfileFile(JSON.stringify({ id: "skylake", inherits: "zen4" }), "my-skylake.json");
    const ok = parseProfileFile(JSON.stringify({ id: "zen4-slow", inherits: "zen4" }), "zen4-slow.json");
    const res = tryResolveInheritance([dup, ok], base);
    expect(res.profiles.map((p) => p.id)).toEqual(["zen4-slow"]);
    expect(res.errors).toHaveLength(1);
    expect(res.errors[0]!.message).toBe('my-skylake.json: /id: duplicate profile id "skylake" (also defined by skylake.json)');
  });

  it("checks feature consistency and names the field", () => {
    const j = p4Json();
    j.id = "p4-nofxsr";
    j.features.fxsr = false;
    const e = errorOf(() => resolveInheritance([parseProfileFile(JSON.stringify(j), "p4-nofxsr.json")]));
    expect(e.message).toContain("p4-nofxsr.json: /features/sse: SSE requires FXSR");
    expect(e.message).toContain("p4-nofxsr.json: /geometry/xsaveBytes/value: without FXSR the FPU save area is the 108-byte FSAVE image (got 512)");
    expect(e.message).toContain('p4-nofxsr.json: /costs/fxsave: features.fxsr is false, so fxsave must be marked "unavailable"');
  });

  it("refuses a clock range whose default lies outside it", () => {
    const j = p4Json();
    j.id = "p4-odd";
    j.clock.defaultMhz = 5000;
    const e = errorOf(() => resolveInheritance([parseProfileFile(JSON.stringify(j), "p4-odd.json")]));
    expect(e.message).toContain("p4-odd.json: /clock/defaultMhz: defaultMhz 5000 is outside [1600, 3066]");
  });

  it("refuses relative costs that form a cycle", () => {
    const j = p4Json();
    j.id = "p4-loop";
    j.costs.call = { cycles: 4, kind: "estimated", source: "loop", relativeTo: { op: "call_indirect" } };
    const e = errorOf(() => resolveInheritance([parseProfileFile(JSON.stringify(j), "p4-loop.json")]));
    expect(e.message).toMatch(/^p4-loop\.json: \/costs\/call(_indirect)?\/relativeTo: relative costs form a cycle: /);
  });

  it("never resolves abstract profiles as runnable", () => {
    expect(resolveInheritance(BUILTIN_PROFILE_SOURCES).map((p) => p.id)).not.toContain("_family-p6");
  });
});

describe("resolveProfile", () => {
  const p4 = BUILTIN_PROFILE_FILES.find((f) => f.id === "p4-northwood")!;

  it("uses the default clock, or the one asked for", () => {
    expect(resolveProfile(p4).mhz).toBe(2200);
    expect(resolveProfile(p4, 3066).mhz).toBe(3066);
    expect(resolveProfile(p4).costs.popf).toBe(52);
  });

  it("refuses a clock outside the profile's range, naming file, field and profile", () => {
    const e = errorOf(() => resolveProfile(p4, 4000));
    expect(e.message).toBe('p4-northwood.json: /clock: 4000 MHz is outside the clock range of profile "p4-northwood" (1600–3066 MHz)');
    expect(errorOf(() => resolveProfile(p4, Number.NaN)).path).toBe("/clock");
  });

  it("validates a profile from elsewhere (e.g. a bundle) before using it", () => {
    const broken = structuredClone(p4) as any;
    delete broken.costs.clts;
    const e = errorOf(() => checkResolvedProfile(broken, "bundle:profiles/p4-northwood.json"));
    expect(e.message).toBe('bundle:profiles/p4-northwood.json: /costs/clts: profile "p4-northwood" has no cost for op class "clts"');
    const stillInheriting = { id: "x", inherits: "p4-northwood" };
    expect(errorOf(() => checkResolvedProfile(stillInheriting, "x.json")).message).toBe(
      'x.json: /inherits: profile inherits "p4-northwood": resolve inheritance first',
    );
  });

  it("does not mutate the file it is given", () => {
    const before = JSON.stringify(p4);
    resolveProfile(p4, 1600);
    expect(JSON.stringify(p4)).toBe(before);
  });
});

describe("CPU references", () => {
  it("parses id and id@MHz forms", () => {
    expect(parseCpuRef("p4-northwood@2200")).toEqual({ id: "p4-northwood", mhz: 2200 });
    expect(parseCpuRef("p4-northwood")).toEqual({ id: "p4-northwood" });
    expect(parseCpuRef("zen4@4.5GHz")).toEqual({ id: "zen4", mhz: 4500 });
    expect(parseCpuRef(" p6-coppermine@733MHz ")).toEqual({ id: "p6-coppermine", mhz: 733 });
    expect(formatCpuRef({ id: "zen4", mhz: 4500 })).toBe("zen4@4500");
  });

  it("rejects malformed references with the text quoted", () => {
    expect(() => parseCpuRef("p4@fast")).toThrow(CpuRefError);
    expect(() => parseCpuRef("p4@fast")).toThrow('invalid CPU reference "p4@fast"');
    expect(() => parseCpuRef("")).toThrow(CpuRefError);
    expect(() => parseCpuRef("zen4@0")).toThrow("above 0 MHz");
  });

  it("a catalog resolves references and lists known ids for unknown ones", () => {
    const cat = new ProfileCatalog(BUILTIN_PROFILE_FILES);
    const r = cat.resolve("p4-northwood@2200");
    expect(r.mhz).toBe(2200);
    expect(r.costs.int_gate).toBeGreaterThan(500);
    expect(() => cat.resolve("p7-tejas@4000")).toThrow(/unknown CPU profile "p7-tejas" \(known: p5-p54c, /);
    expect(() => cat.resolve("skylake@9999")).toThrow(ProfileError);
  });

  it("a catalog built from user sources adds them next to the builtins", () => {
    const src: CpuProfileSource = parseProfileFile(JSON.stringify({ id: "zen4-3ghz", inherits: "zen4", clock: { defaultMhz: 3000 } }), "z.json");
    const { catalog, errors } = ProfileCatalog.fromSources([src], BUILTIN_PROFILE_FILES, { base: BUILTIN_PROFILE_SOURCES });
    expect(errors).toEqual([]);
    expect(catalog.resolve("zen4-3ghz").mhz).toBe(3000);
    expect(catalog.ids()).toContain("p5-p54c");
  });
});
