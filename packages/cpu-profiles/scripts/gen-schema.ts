/**
 * Regenerates schema/cpu-profile.schema.json from the TypeBox schema (src/schema.ts).
 * Run: pnpm exec tsx packages/cpu-profiles/scripts/gen-schema.ts   (a test checks they agree)
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { profileJsonSchema } from "../src/schema.js";

const out = fileURLToPath(new URL("../schema/cpu-profile.schema.json", import.meta.url));
writeFileSync(out, `${JSON.stringify(profileJsonSchema(), null, 2)}\n`);
console.log(`wrote ${out}`);
