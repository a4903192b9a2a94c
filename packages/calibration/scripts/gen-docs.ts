/** Regenerates the generated section of docs/calibration.md: `pnpm exec tsx packages/calibration/scripts/gen-docs.ts`. */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { generatedSection, updateDoc } from "../src/docs.js";
import { closeCalibrationHost } from "../src/env.js";
import { REPO_ROOT } from "../src/node.js";

const path = join(REPO_ROOT, "docs/calibration.md");
const before = readFileSync(path, "utf8");
let section: string;
try {
  section = await generatedSection();
} finally {
  closeCalibrationHost(); // the execution host process would keep this script alive
}
const after = updateDoc(before, section);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? "docs/calibration.md is up to date" : "updated docs/calibration.md");
