import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { generatedSection, updateDoc } from "../src/docs.js";
import { closeCalibrationHost } from "../src/env.js";
import { REPO_ROOT } from "../src/node.js";

afterAll(closeCalibrationHost);

describe("docs/calibration.md", () => {
  it("its generated numbers match the model (regenerate: pnpm exec tsx packages/calibration/scripts/gen-docs.ts)", async () => {
    const doc = readFileSync(join(REPO_ROOT, "docs/calibration.md"), "utf8");
    expect(updateDoc(doc, await generatedSection())).toBe(doc);
  });

  it("refuses a doc without the markers", () => {
    expect(() => updateDoc("# no markers", "x")).toThrow(/docs\/calibration\.md: missing the generated-section markers/);
  });
});
