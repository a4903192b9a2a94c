import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { BUILTIN_PROFILE_FILES, CALIBRATION_FIGURES, CpuProfileSourceSchema, OP_CLASS_IDS, SMP_OP_CLASS_IDS, MACHINE_OP_CLASS_IDS, profileJsonSchema } from "../src/index.js";
import { generatedDocs } from "../scripts/docs-tables.js";

const read = (rel: string) => readFileSync(new URL(rel, import.meta.url), "utf8");

/** Replaces every {"$ref": "#/definitions/X"} by the definition (recursively). */
function expand(node: unknown, defs: Record<string, unknown>): unknown {
  if (Array.isArray(node)) return node.map((n) => expand(n, defs));
  if (typeof node !== "object" || node === null) return node;
  const ref = (node as { $ref?: string }).$ref;
  if (ref) return expand(defs[ref.replace("#/definitions/", "")], defs);
  return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, expand(v, defs)]));
}

describe("published JSON Schema", () => {
  const published = JSON.parse(read("../schema/cpu-profile.schema.json")) as Record<string, unknown>;

  it("is what scripts/gen-schema.ts generates from the TypeBox schema", () => {
    expect(published).toEqual(profileJsonSchema());
  });

  it("is the TypeBox schema exactly once its $refs are expanded", () => {
    const { $schema: _s, title: _t, description: _d, definitions, ...body } = published;
    const expanded = expand(body, definitions as Record<string, unknown>);
    expect(expanded).toEqual(JSON.parse(JSON.stringify(CpuProfileSourceSchema)));
  });

  it("lists every op class", () => {
    const costs = (published.properties as any).costs.properties as Record<string, unknown>;
    expect(Object.keys(costs)).toEqual([...OP_CLASS_IDS, ...SMP_OP_CLASS_IDS, ...MACHINE_OP_CLASS_IDS]);
  });
});

describe("docs", () => {
  it("docs/profiles.md carries the current generated provenance tables (run scripts/gen-docs.ts)", () => {
    expect(read("../../../docs/profiles.md")).toContain(generatedDocs(BUILTIN_PROFILE_FILES));
  });

  it("docs/sources.md lists every source key that a sourced or derived number cites", () => {
    const sources = read("../../../docs/sources.md");
    const keys = [...sources.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]!);
    expect(keys.length).toBeGreaterThan(20);
    const cites = (text: string) => keys.some((k) => new RegExp(`(^|[^A-Za-z0-9-])${k.replace(/[/.]/g, "\\$&")}([^A-Za-z0-9-]|$)`).test(text));
    for (const f of BUILTIN_PROFILE_FILES) {
      for (const [op, e] of Object.entries(f.costs)) {
        if ((e.kind === "sourced" || e.kind === "derived") && !e.unavailable && !e.relativeTo) {
          expect(cites(e.source), `${f.id}/${op}: ${e.source}`).toBe(true);
        }
      }
      for (const [k, n] of Object.entries(f.geometry)) {
        if (n.kind === "sourced") expect(cites(n.source), `${f.id}/geometry/${k}: ${n.source}`).toBe(true);
      }
    }
  });
});

describe("calibration figures copy", () => {
  it("keeps the brief's figures with their sources and says it is a copy", () => {
    expect(CALIBRATION_FIGURES.note).toMatch(/copy of the project's calibration brief/i);
    const ids = CALIBRATION_FIGURES.figures.map((f) => f.id);
    expect(ids).toEqual([
      "p4-lat-sig-catch",
      "p4-lat-ctx-2p-0k",
      "fxsr-signal-tripling",
      "p3-getpid-loop-cli",
      "p3-getpid-loop-no-cli",
      "p4-int80-vs-sysenter",
      "ngpt-vs-linuxthreads-yield",
    ]);
    for (const f of CALIBRATION_FIGURES.figures) expect(f.source.length).toBeGreaterThan(10);
    expect(CALIBRATION_FIGURES.figures.find((f) => f.id === "p4-int80-vs-sysenter")!.value).toEqual({ int80: 1568, sysenter: 428 });
  });
});
