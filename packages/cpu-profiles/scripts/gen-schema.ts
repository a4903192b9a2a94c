/**
 * Regenerates schema/cpu-profile.schema.json (src/schema.ts) and schema/cpu-profile-fitted.schema.json
 * (the generated fitted overlays, src/overlay.ts) from the TypeBox schemas.
 * Run: pnpm exec tsx packages/cpu-profiles/scripts/gen-schema.ts   (a test checks they agree)
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { fittedOverlayJsonSchema } from "../src/overlay.js";
import { profileJsonSchema } from "../src/schema.js";

const out = fileURLToPath(new URL("../schema/cpu-profile.schema.json", import.meta.url));
writeFileSync(out, `${JSON.stringify(profileJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);

const fitted = fileURLToPath(new URL("../schema/cpu-profile-fitted.schema.json", import.meta.url));
writeFileSync(fitted, `${JSON.stringify(fittedOverlayJsonSchema(), null, 2)}\n`);
console.log(`wrote ${fitted}`);
