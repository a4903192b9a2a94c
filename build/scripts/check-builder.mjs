#!/usr/bin/env node
/**
 * Offline checks of build/electron-builder.yml (no Electron download):
 *  1. electron-builder's own schema validation of the configuration;
 *  2. with --package: a real `--linux dir` build against a placeholder Electron folder, to prove
 *     the `files`/asar setup (app.asar holds main, preload, renderer and no node_modules).
 * Usage (from apps/desktop): node ../../build/scripts/check-builder.mjs [--package]
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const desktopDir = path.resolve(fileURLToPath(new URL("../../apps/desktop/", import.meta.url)));
const configPath = path.resolve(fileURLToPath(new URL("../electron-builder.yml", import.meta.url)));
const requireFromDesktop = createRequire(path.join(desktopDir, "package.json"));
const requireFromBuilder = createRequire(requireFromDesktop.resolve("electron-builder"));
const { getConfig, validateConfiguration } = requireFromBuilder("app-builder-lib/out/util/config/config.js");
const { DebugLogger } = requireFromBuilder("builder-util");

const fail = (msg) => {
  console.error(`check-builder: ${msg}`);
  process.exit(1);
};

const config = await getConfig(desktopDir, configPath, null);
try {
  await validateConfiguration(config, new DebugLogger(false));
} catch (err) {
  fail(`${configPath}: ${err.message}`);
}
for (const [key, want] of [["appId", "org.siglab.desktop"], ["productName", "SigLab"]]) {
  if (config[key] !== want) fail(`${configPath}: ${key} must be ${want}, is ${config[key]}`);
}
const targets = (p) => (config[p]?.target ?? []).map((t) => (typeof t === "string" ? t : t.target));
for (const [platform, want] of [["linux", ["AppImage", "deb"]], ["win", ["nsis"]], ["mac", ["dmg"]]]) {
  for (const t of want) if (!targets(platform).includes(t)) fail(`${configPath}: ${platform} targets lack ${t}`);
}
if (!config.fileAssociations?.some((a) => a.ext === "siglab")) fail(`${configPath}: no file association for .siglab`);
console.log(`electron-builder configuration OK: ${configPath}`);

if (!process.argv.includes("--package")) process.exit(0);

// --- placeholder Electron: enough files for electron-builder's "dir" target on Linux -----------
for (const f of ["dist/main/main.cjs", "dist/preload/preload.cjs", "dist/renderer/index.html"]) {
  if (!existsSync(path.join(desktopDir, f))) fail(`${f} missing: run pnpm --filter @siglab/desktop build first`);
}
const placeholder = mkdtempSync(path.join(os.tmpdir(), "siglab-electron-dist-"));
writeFileSync(path.join(placeholder, "electron"), "#!/bin/sh\necho placeholder electron\n");
chmodSync(path.join(placeholder, "electron"), 0o755);
mkdirSync(path.join(placeholder, "resources"));
writeFileSync(path.join(placeholder, "LICENSE"), "placeholder");
writeFileSync(path.join(placeholder, "version"), "45.5.0");
const out = mkdtempSync(path.join(os.tmpdir(), "siglab-builder-out-"));
const cli = requireFromDesktop.resolve("electron-builder/cli.js");
const r = spawnSync(process.execPath, [cli, "--config", configPath, "--projectDir", desktopDir, "--linux", "dir", `-c.electronDist=${placeholder}`, `-c.directories.output=${out}`, "--publish", "never"], {
  cwd: desktopDir,
  stdio: "inherit",
  env: { ...process.env, ELECTRON_BUILDER_OFFLINE: "true", CSC_IDENTITY_AUTO_DISCOVERY: "false" },
});
if (r.status !== 0) fail(`electron-builder --linux dir failed (exit ${r.status})`);
const asarPath = path.join(out, "linux-unpacked", "resources", "app.asar");
if (!existsSync(asarPath)) fail(`${asarPath} was not produced`);
const asar = requireFromBuilder("@electron/asar");
const files = asar.listPackage(asarPath, { isPack: false }).map((f) => f.replace(/\\/g, "/"));
for (const want of ["/dist/main/main.cjs", "/dist/preload/preload.cjs", "/dist/renderer/index.html", "/package.json"]) {
  if (!files.includes(want)) fail(`app.asar lacks ${want}`);
}
if (files.some((f) => f.startsWith("/node_modules/"))) fail("app.asar contains node_modules (keep desktop packages in devDependencies)");
if (files.some((f) => f.endsWith(".map"))) fail("app.asar contains source maps");
console.log(`--linux dir with a placeholder Electron OK: app.asar holds ${files.length} entries, no node_modules`);
rmSync(placeholder, { recursive: true, force: true });
rmSync(out, { recursive: true, force: true });
