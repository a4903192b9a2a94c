import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generatedSection, updateDoc } from "../src/docs.js";
import { REPO_ROOT } from "../src/node.js";

describe("docs/calibration.md", () => {
  it("its generated numbers match the model (regenerate: pnpm exec tsx packages/calibration/scripts/gen-docs.ts)", () => {
    const doc = readFileSync(join(REPO_ROOT, "docs/calibration.md"), "utf8");
    expect(updateDoc(doc, generatedSection())).toBe(doc);
  });

  it("refuses a doc without the markers", () => {
    expect(() => updateDoc("# no markers", "x")).toThrow(/docs\/calibration\.md: missing the generated-section markers/);
  });
});
