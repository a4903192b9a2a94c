/**
 * Issue 30: the app reads a workload's parameters from its text (src/worker/workload-outline.ts),
 * never by running it. For every shipped example the text gives exactly the parameters evaluating
 * the module gives; defaults only code can compute are named, not guessed.
 */
import { describe, expect, it } from "vitest";
import { asWorkload, createSiglabModule } from "@siglab/core";
import { builtinCatalog } from "../src/node/catalog.js";
import { transpileToCommonJs } from "../src/worker/transpile.js";
import { readWorkloadOutline } from "../src/worker/workload-outline.js";

/** The shipped examples' parameters as the runtime sees them (trusted code, evaluated here on purpose). */
function evaluatedParams(source: string, file: string): Record<string, unknown> {
  const module = { exports: {} as unknown };
  const siglab = createSiglabModule();
  new Function("require", "module", "exports", transpileToCommonJs(source, file))((id: string) => (id === "siglab" ? siglab : {}), module, module.exports);
  return asWorkload(module.exports, file).params;
}

describe("a workload's outline, read from its text", () => {
  const examples = builtinCatalog().examples;

  it("gives every shipped example's parameters exactly as evaluating it does", () => {
    expect(examples.length).toBeGreaterThan(20);
    for (const e of examples) {
      const o = readWorkloadOutline(e.source, e.file);
      expect({ file: e.file, params: o.params, unread: o.unread, problem: o.problem }).toEqual({ file: e.file, params: evaluatedParams(e.source, e.file), unread: [], problem: undefined });
    }
  });

  it("folds constants (signs, arithmetic, string +, top-level consts, as const) and names what only code computes", () => {
    const src = `import { workload as w } from "siglab";
const PAGES = 4;
const SIZE = PAGES * 4096;
const base = { label: "x" + "y" } as const;
function pick() { for (;;) {} }
const def = w({
  name: "outlined",
  description: \`no substitutions\`,
  params: { pages: PAGES, bytes: SIZE, offset: -(1 << 4), on: !false, label: "a" + PAGES, computed: pick(), fromObject: base.label, "quoted key": 1_000 },
  *main(t) {},
});
export default def;
`;
    expect(readWorkloadOutline(src, "w.ts")).toEqual({
      name: "outlined",
      description: "no substitutions",
      params: { pages: 4, bytes: 16384, offset: -16, on: true, label: "a4", "quoted key": 1000 },
      unread: ["computed", "fromObject"],
    });
  });

  it("reads a plain default object and an `export { x as default }`, and says when there is no workload", () => {
    expect(readWorkloadOutline(`export default { params: { n: 2 }, *main(t) {} };`, "a.ts").params).toEqual({ n: 2 });
    expect(readWorkloadOutline(`const d = { params: { n: 3 }, *main(t) {} };\nexport { d as default };`, "b.ts").params).toEqual({ n: 3 });
    expect(readWorkloadOutline(`export const x = 1;`, "c.ts")).toMatchObject({ params: {}, problem: "no `export default workload({ … })` found in the text" });
  });

  it("reports the first syntax error with its line and column, and still reads what it can", () => {
    const o = readWorkloadOutline(`import { workload } from "siglab";\nexport default workload({\n  params: { n: 5 },\n  *main(t) { yield* t.getpid(; },\n});\n`, "s.ts");
    expect(o.syntax).toEqual({ line: 4, column: 30, message: "')' expected." });
    expect(o.params).toEqual({ n: 5 });
  });
});
