/** `siglab plugins list|info` and the command wiring (`plugins` and its alias `plugin`). */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { cac } from "cac";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLUGIN_API_VERSION } from "@siglab/core";
import { BUILTIN_PLUGINS } from "@siglab/builtin-plugins";
import { pluginsInfo, pluginsList, registerPluginsCommands } from "../src/commands/plugins.js";
import { allPresets, findPreset } from "../src/plugins/catalog.js";

let dir: string;

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { log: (l: string) => out.push(...l.split("\n")), error: (l: string) => err.push(l) }, out, err };
}

function writePlugin(folder: string, manifest: Record<string, unknown>, code = "exports.createModule = (o, api) => new api.ContainerModule(() => {});") {
  mkdirSync(join(dir, folder, "examples"), { recursive: true });
  writeFileSync(join(dir, folder, "plugin.json"), JSON.stringify(manifest));
  writeFileSync(join(dir, folder, "main.js"), code);
}

const THIRD = {
  id: "tp-demo",
  version: "2.3.4",
  apiVersion: PLUGIN_API_VERSION,
  displayName: "Third-party demo",
  description: "A demo variant with every kind of option.",
  options: {
    mode: { type: "enum", values: ["ts", "unmapped-page"], default: "ts", description: "How the save is deferred" },
    depth: { type: "number", default: 2, min: 1, max: 8, unit: "frames", description: "Nesting depth" },
    strict: { type: "boolean", default: false, description: "Report every occurrence" },
  },
  contributes: ["EntryMechanism", "PathTransformContribution"],
  replaces: ["EntryMechanism"],
  main: "main.js",
  presets: [{ id: "tp-demo-deep", name: "TP demo, deep", description: "tp-demo at depth 8", stack: [{ id: "tp-demo", options: { depth: 8 } }] }],
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "siglab-plugins-cli-"));
  writePlugin("tp-demo", THIRD);
  writeFileSync(join(dir, "tp-demo", "examples", "tp_demo_run.ts"), `import { workload } from "siglab";\nexport default workload({ name: "tp demo run", params: {}, *main(t) { yield* t.getpid(); } });\n`);
  // its preset takes the id of a built-in one: left out, with the reason
  writePlugin("tp-rival", { ...THIRD, id: "tp-rival", displayName: "Rival entry", options: {}, presets: [{ id: "linux-2.4.18", name: "mine", description: "a clash", stack: [{ id: "tp-rival" }] }] });
  writePlugin("tp-old", { ...THIRD, id: "tp-old", apiVersion: "0.9" });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("siglab plugins list", () => {
  it("lists built-in and third-party plugins with id, version, API version, name, origin; refused ones with the reason", () => {
    const c = capture();
    expect(pluginsList([dir], {}, c.io)).toBe(0);
    const text = c.out.join("\n");
    expect(text).toContain(`plugin API ${PLUGIN_API_VERSION}`);
    for (const p of BUILTIN_PLUGINS) expect(text).toMatch(new RegExp(`^  ${p.manifest.id}\\s+${p.manifest.version.replaceAll(".", "\\.")}\\s+\\^${p.manifest.apiVersion.replace(".", "\\.")}\\s+built-in\\s+.*built-in$`, "m"));
    expect(text).toMatch(new RegExp(`^  tp-demo\\s+2\\.3\\.4\\s+\\^${PLUGIN_API_VERSION.replace(".", "\\.")}\\s+--plugin-dir\\s+Third-party demo\\s+${join(dir, "tp-demo")}$`, "m"));
    expect(text).toMatch(/Refused \(1\):\n  tp-old: .*plugin 'tp-old' targets plugin API 0\.9, but this SigLab implements plugin API/);
  });

  it("--json: the same as data", () => {
    const c = capture();
    expect(pluginsList([dir], { json: true }, c.io)).toBe(0);
    const data = JSON.parse(c.out.join("\n"));
    expect(data.pluginApiVersion).toBe(PLUGIN_API_VERSION);
    expect(data.plugins.find((p: { id: string }) => p.id === "tp-demo")).toEqual({ id: "tp-demo", version: "2.3.4", apiVersion: PLUGIN_API_VERSION, apiRange: `^${PLUGIN_API_VERSION}`, name: "Third-party demo", builtin: false, origin: "--plugin-dir", from: join(dir, "tp-demo") });
    expect(data.plugins.filter((p: { builtin: boolean }) => p.builtin).map((p: { id: string }) => p.id)).toEqual(BUILTIN_PLUGINS.map((p) => p.manifest.id));
    expect(data.refused).toEqual([{ id: "tp-old", dir: join(dir, "tp-old"), reason: expect.stringMatching(/0\.9/) }]);
  });
});

describe("siglab plugins info", () => {
  it("shows the whole manifest: options with types, ranges, defaults, descriptions; points; examples; conflicts", () => {
    const c = capture();
    expect(pluginsInfo("tp-demo", [dir], {}, c.io)).toBe(0);
    const text = c.out.join("\n");
    expect(text).toMatch(/^tp-demo 2\.3\.4: Third-party demo$/m);
    expect(text).toContain("A demo variant with every kind of option.");
    expect(text).toMatch(/^  mode\s+enum, one of ts \| unmapped-page\s+default "ts"\s+How the save is deferred$/m);
    expect(text).toMatch(/^  depth\s+number \(frames\), 1\.\.8\s+default 2\s+Nesting depth$/m);
    expect(text).toMatch(/^  strict\s+boolean\s+default false\s+Report every occurrence$/m);
    expect(text).toMatch(/^Contributes to: EntryMechanism, PathTransformContribution$/m);
    expect(text).toMatch(/^Replaces: EntryMechanism \(conflicts with: (.*, )?tp-rival(, .*)?\)$/m);
    expect(text).toMatch(/conflicts with: .*sysenter/); // the built-in SYSENTER entry replaces it too
    expect(text).toMatch(/^  tp_demo_run\s+tp demo run \(tp-demo\/examples\/tp_demo_run\.ts\)$/m);
    expect(text).toMatch(/third-party, from .*tp-demo \(main: main\.js\)/);
  });

  it("a built-in plugin, as JSON", () => {
    const b = BUILTIN_PLUGINS[0]!;
    const c = capture();
    expect(pluginsInfo(b.manifest.id, [], { json: true }, c.io)).toBe(0);
    const info = JSON.parse(c.out.join("\n"));
    expect(info.manifest).toEqual(JSON.parse(JSON.stringify(b.manifest)));
    expect(info).toMatchObject({ builtin: true, from: "built-in" });
  });

  it("the Try line runs the first example on the CPU and stack it suggests (long mode, a preset)", () => {
    const line = (id: string) => {
      const c = capture();
      expect(pluginsInfo(id, [], {}, c.io)).toBe(0);
      return c.out.join("\n").split("\n").find((l) => l.startsWith("Try: "));
    };
    // io-uring needs linux6 under it: the preset of both, on its example's 64-bit CPU, no baseline
    expect(line("io-uring")).toMatch(/^Try: siglab run io_uring_\w+ --cpu zen4 --preset linux-6\+io-uring$/);
    expect(line("linux6")).toMatch(/^Try: siglab run linux6_\w+ --cpu skylake(-x)? --variant linux6 --baseline$/);
    expect(line("sa-nofp")).toBe("Try: siglab run <workload> --variant sa-nofp --baseline");
  });

  it("an unknown id exits non-zero and lists the valid ids; a refused one says why", () => {
    const c = capture();
    expect(pluginsInfo("nope", [dir], {}, c.io)).toBe(2);
    expect(c.err.join("\n")).toMatch(new RegExp(`unknown plugin 'nope' \\(plugins: ${BUILTIN_PLUGINS.map((p) => p.manifest.id).join(", ")}, tp-demo, tp-rival\\)`));
    const d = capture();
    expect(pluginsInfo("tp-old", [dir], {}, d.io)).toBe(1);
    expect(d.err.join("\n")).toMatch(/plugin 'tp-old' was refused: .*targets plugin API 0\.9/);
    const e = capture();
    expect(pluginsInfo(undefined, [dir], {}, e.io)).toBe(2);
    expect(e.err.join("\n")).toMatch(/which plugin\?/);
  });
});

describe("presets of third-party plugins", () => {
  it("follow the built-in ones; a taken id is left out and named; --preset finds them only with --plugin-dir", async () => {
    const { presets, refused } = allPresets([dir]);
    expect(presets.map((p) => p.id).filter((id) => id.startsWith("tp-") || id === "linux-2.4.18")).toEqual(["linux-2.4.18", "tp-demo-deep"]);
    expect(presets.find((p) => p.id === "linux-2.4.18")!.name).toBe("Linux 2.4.18 (i386)");
    expect(refused).toEqual([`${join(dir, "tp-rival")}: preset 'linux-2.4.18' of plugin 'tp-rival' is left out: the id is already a preset`]);
    expect(await findPreset("tp-demo-deep", [dir])).toEqual([{ id: "tp-demo", options: { depth: 8 } }]);
    expect(await findPreset("TP demo, deep", [dir])).toEqual([{ id: "tp-demo", options: { depth: 8 } }]);
    await expect(findPreset("tp-demo-deep", [])).rejects.toThrow(/unknown preset 'tp-demo-deep' \(presets: linux-2\.4\.18, .*; presets of third-party plugins need --plugin-dir\)/);
  });

  it("plugins info lists the presets that use the plugin", () => {
    const c = capture();
    expect(pluginsInfo("tp-demo", [dir], { json: true }, c.io)).toBe(0);
    expect(JSON.parse(c.out.join("\n")).presets).toEqual([{ id: "tp-demo-deep", name: "TP demo, deep" }]);
  });
});

describe("command wiring", () => {
  async function cli(argv: string[]) {
    const c = capture();
    const app = cac("siglab");
    registerPluginsCommands(app, c.io);
    app.parse(["node", "siglab", ...argv], { run: false });
    const before = process.exitCode;
    await app.runMatchedCommand();
    const code = process.exitCode;
    process.exitCode = before;
    return { ...c, code };
  }

  it("`plugins list`, `plugins info <id> --plugin-dir`, and the `plugin` alias", async () => {
    const a = await cli(["plugins", "list", "--plugin-dir", dir, "--json"]);
    expect(a.code).toBe(0);
    expect(JSON.parse(a.out.join("\n")).plugins.map((p: { id: string }) => p.id)).toContain("tp-demo");
    const b = await cli(["plugins", "info", "tp-rival", "--plugin-dir", dir]);
    expect(b.out[0]).toBe("tp-rival 2.3.4: Rival entry");
    const c = await cli(["plugin", "new", "x-y", "--dir", dir]);
    expect(c.code).toBe(0);
    expect(c.out[0]).toBe(`created ${join(dir, "x-y")} (10 files):`);
    const d = await cli(["plugins", "frobnicate"]);
    expect(d.code).toBe(2);
    expect(d.err[0]).toMatch(/unknown action 'frobnicate' \(list, info <id>, new <name>, dev <dir>, pack <dir>, install <file> or remove <id>\)/);
  });
});
