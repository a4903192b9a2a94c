/**
 * packages/core/schema/*.schema.json are the TypeBox schemas as JSON Schema, for tools and people
 * outside SigLab. This test keeps them in sync; run with UPDATE_SCHEMAS=1 to rewrite them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { PUBLISHED_SCHEMAS } from "../../src/bundle/index.js";

const dir = fileURLToPath(new URL("../../schema/", import.meta.url));

describe("published JSON Schemas", () => {
  for (const [name, schema] of Object.entries(PUBLISHED_SCHEMAS)) {
    it(`${name} matches the schema the reader uses`, () => {
      const text = JSON.stringify({ $schema: "https://json-schema.org/draft/2020-12/schema", ...schema }, null, 2) + "\n";
      if (process.env.UPDATE_SCHEMAS) writeFileSync(dir + name, text);
      expect(readFileSync(dir + name, "utf8")).toBe(text);
      const parsed = JSON.parse(text);
      expect(parsed.type).toBeDefined();
    });
  }
});
