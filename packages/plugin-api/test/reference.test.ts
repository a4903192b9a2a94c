/**
 * The API reference: every exported symbol and member of the published declarations
 * (dist/index.d.ts) has a doc comment — TypeDoc's validation.notDocumented, invalid links and
 * types referenced but not exported, with warnings as errors (typedoc.json) — and docs/api is the
 * Markdown TypeDoc makes of the current declarations. After changing the API:
 * `pnpm --filter @siglab/plugin-api build && pnpm --filter @siglab/plugin-api docs`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const PKG = join(import.meta.dirname, "..");
const DOCS = join(PKG, "../../docs/api");
const TYPEDOC = join(PKG, "node_modules/typedoc/bin/typedoc");
const tmp = mkdtempSync(join(tmpdir(), "siglab-api-reference-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function typedoc(args: string[], cwd = PKG) {
  const r = spawnSync(process.execPath, [TYPEDOC, ...args], { cwd, encoding: "utf8", timeout: 120_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}`.replace(/\x1b\[[0-9;]*m/g, "") };
}

function tree(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((d) => d.isFile())
      .map((d) => join(d.parentPath, d.name))
      .map((f) => [relative(dir, f), readFileSync(f, "utf8")]),
  );
}

describe("the plugin API's reference", () => {
  it("every public symbol and member is documented, and docs/api is generated from the current declarations", () => {
    const out = join(tmp, "api");
    const r = typedoc(["--out", out]);
    expect(r.status, r.out).toBe(0);
    expect(r.out).not.toMatch(/\[warning\]|\[error\]/);
    const made = tree(out), committed = tree(DOCS);
    const stale = [...new Set([...made.keys(), ...committed.keys()])].filter((f) => made.get(f) !== committed.get(f)).sort();
    expect(stale, "docs/api is out of date: run `pnpm --filter @siglab/plugin-api docs`").toEqual([]);
  });

  it("the check fails on an undocumented export or member (so the one above can fail)", () => {
    const probe = JSON.parse(readFileSync(join(PKG, "typedoc.json"), "utf8")) as Record<string, unknown>;
    writeFileSync(join(tmp, "probe.d.ts"), `/** documented */\nexport interface Documented {\n  /** documented */\n  a: number;\n  b: number;\n}\nexport declare const bare: number;\n`);
    writeFileSync(join(tmp, "tsconfig.json"), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, types: [] }, files: ["probe.d.ts"] }));
    // the reference's own checks, on a declaration file with one export and one member undocumented
    writeFileSync(join(tmp, "typedoc.json"), JSON.stringify({ name: "probe", validation: probe["validation"], treatWarningsAsErrors: probe["treatWarningsAsErrors"], disableSources: probe["disableSources"], entryPoints: ["probe.d.ts"], tsconfig: "./tsconfig.json", emit: "none" }));
    const r = typedoc(["--options", join(tmp, "typedoc.json")], tmp);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/Documented\.b \(Property\).* does not have any documentation/);
    expect(r.out).toMatch(/bare \(Variable\).* does not have any documentation/);
  });
});
