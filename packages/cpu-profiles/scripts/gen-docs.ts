/**
 * Rewrites the generated provenance tables in docs/profiles.md (between the marker comments) from
 * the shipped profiles. Run: pnpm exec tsx packages/cpu-profiles/scripts/gen-docs.ts
 * (a test checks the doc is current).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { BUILTIN_PROFILE_FILES } from "../src/builtin.js";
import { replaceGeneratedDocs } from "./docs-tables.js";

const path = fileURLToPath(new URL("../../../docs/profiles.md", import.meta.url));
writeFileSync(path, replaceGeneratedDocs(readFileSync(path, "utf8"), BUILTIN_PROFILE_FILES));
console.log(`updated ${path}`);
