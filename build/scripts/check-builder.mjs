#!/usr/bin/env node
/**
 * Offline checks of build/electron-builder.yml (no Electron download):
 *  1. electron-builder's own schema validation of the configuration;
 *  2. with --package: a real `--linux dir` build against a placeholder Electron folder, to prove
 *     the `files`/asar setup (app.asar holds main, preload, renderer and no node_modules) and the
 *     Electron fuses (flipped in the placeholder's fuse wire and read back); then `--linux deb` up
 *     to fpm (metadata checked by electron-builder, fpm's arguments checked here: fpm itself is a
 *     GitHub download) and `--linux AppImage` when APPIMAGE_TOOLS_PATH names its tools.
 * Usage (from apps/desktop): node ../../build/scripts/check-builder.mjs [--package]
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

const temporary = [];
const fail = (msg) => {
  console.error(`check-builder: ${msg}`);
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true });
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
// Its "binary" carries a fuse wire as Electron's does (sentinel, wire version 1, 8 fuses in
// Electron 45's default states), so electron-builder's electronFuses step has something to flip and
// the flipped states can be read back.
for (const f of ["dist/main/main.cjs", "dist/preload/preload.cjs", "dist/renderer/index.html"]) {
  if (!existsSync(path.join(desktopDir, f))) fail(`${f} missing: run pnpm --filter @siglab/desktop build first`);
}
const fuses = requireFromBuilder("@electron/fuses");
const SENTINEL = "dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX";
// RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on, ASAR integrity off,
// only-load-from-ASAR off, browser V8 snapshot off, file: privileges on (Electron's defaults)
const ELECTRON_DEFAULT_WIRE = "10110001";
const placeholder = mkdtempSync(path.join(os.tmpdir(), "siglab-electron-dist-"));
writeFileSync(path.join(placeholder, "electron"), Buffer.concat([
  Buffer.from("#!/bin/sh\necho placeholder electron\nexit 0\n# "),
  Buffer.from(SENTINEL), Buffer.from([1, ELECTRON_DEFAULT_WIRE.length]), Buffer.from(ELECTRON_DEFAULT_WIRE), Buffer.from("\n"),
]));
chmodSync(path.join(placeholder, "electron"), 0o755);
mkdirSync(path.join(placeholder, "resources"));
writeFileSync(path.join(placeholder, "LICENSE"), "placeholder");
writeFileSync(path.join(placeholder, "version"), "45.5.0");
const out = mkdtempSync(path.join(os.tmpdir(), "siglab-builder-out-"));
temporary.push(placeholder, out);
const cli = requireFromDesktop.resolve("electron-builder/cli.js");
const builder = (args, env = {}) =>
  spawnSync(process.execPath, [cli, "--config", configPath, "--projectDir", desktopDir, ...args, "--publish", "never"], {
    cwd: desktopDir,
    encoding: "utf8",
    env: { ...process.env, ELECTRON_BUILDER_OFFLINE: "true", CSC_IDENTITY_AUTO_DISCOVERY: "false", ...env },
  });
const cleanup = () => {
  rmSync(placeholder, { recursive: true, force: true });
  rmSync(out, { recursive: true, force: true });
};

// 1. --linux dir: files, asar, fuses
const r = builder(["--linux", "dir", `-c.electronDist=${placeholder}`, `-c.directories.output=${path.join(out, "dir")}`]);
process.stdout.write(r.stdout);
process.stderr.write(r.stderr);
if (r.status !== 0) fail(`electron-builder --linux dir failed (exit ${r.status})`);
const unpacked = path.join(out, "dir", "linux-unpacked");
const asarPath = path.join(unpacked, "resources", "app.asar");
if (!existsSync(asarPath)) fail(`${asarPath} was not produced`);
const asar = requireFromBuilder("@electron/asar");
const files = asar.listPackage(asarPath, { isPack: false }).map((f) => f.replace(/\\/g, "/"));
for (const want of ["/dist/main/main.cjs", "/dist/preload/preload.cjs", "/dist/renderer/index.html", "/package.json"]) {
  if (!files.includes(want)) fail(`app.asar lacks ${want}`);
}
if (files.some((f) => f.startsWith("/node_modules/"))) fail("app.asar contains node_modules (keep desktop packages in devDependencies)");
if (files.some((f) => f.endsWith(".map"))) fail("app.asar contains source maps");
console.log(`--linux dir with a placeholder Electron OK: app.asar holds ${files.length} entries, no node_modules`);

const executable = path.join(unpacked, config.linux?.executableName ?? "");
if (!config.linux?.executableName || !existsSync(executable)) fail(`the Linux executable ${executable} was not produced (linux.executableName)`);
const FUSE_KEYS = ["runAsNode", "enableCookieEncryption", "enableNodeOptionsEnvironmentVariable", "enableNodeCliInspectArguments", "enableEmbeddedAsarIntegrityValidation", "onlyLoadAppFromAsar", "loadBrowserProcessSpecificV8Snapshot", "grantFileProtocolExtraPrivileges"];
const required = { runAsNode: false, enableCookieEncryption: true, enableEmbeddedAsarIntegrityValidation: true, onlyLoadAppFromAsar: true };
for (const [k, v] of Object.entries(required)) if (config.electronFuses?.[k] !== v) fail(`${configPath}: electronFuses.${k} must be ${v}`);
const wire = await fuses.getCurrentFuseWire(executable);
const ENABLE = "1".charCodeAt(0);
const DISABLE = "0".charCodeAt(0);
const states = FUSE_KEYS.map((k, i) => {
  const want = config.electronFuses[k];
  const expected = want === undefined ? ELECTRON_DEFAULT_WIRE.charCodeAt(i) : want ? ENABLE : DISABLE;
  if (wire[i] !== expected) fail(`fuse ${k}: ${String.fromCharCode(wire[i])} in the packaged binary, expected ${String.fromCharCode(expected)}`);
  return `${k}=${wire[i] === ENABLE ? "on" : "off"}`;
});
console.log(`Electron fuses flipped in the packaged binary: ${states.join(", ")}`);

// 2. deb: everything up to fpm. electron-builder checks the package metadata (homepage, the
// maintainer's email) and then runs fpm, which it downloads from GitHub (unreachable offline; no
// distribution packages fpm). A recording stand-in takes fpm's place: it keeps the arguments
// electron-builder would give fpm and refuses, so no .deb is claimed; the arguments are checked.
const record = path.join(out, "fpm-args");
const recorder = path.join(out, "record-fpm.sh");
writeFileSync(recorder, `#!/bin/sh\nprintf '%s\\0' "$@" > '${record}'\necho "check-builder: fpm's arguments recorded; no .deb is built offline" >&2\nexit 3\n`);
chmodSync(recorder, 0o755);
const deb = builder(["--prepackaged", unpacked, "--linux", "deb", `-c.directories.output=${path.join(out, "deb")}`], { CUSTOM_FPM_PATH: recorder });
if (!existsSync(record)) {
  process.stdout.write(deb.stdout);
  process.stderr.write(deb.stderr);
  fail("electron-builder --linux deb stopped before fpm (the package metadata above is incomplete)");
}
const fpmArgs = readFileSync(record, "utf8").split("\0").slice(0, -1);
const arg = (name) => {
  const i = fpmArgs.indexOf(name);
  return i < 0 ? undefined : fpmArgs[i + 1];
};
const pkg = JSON.parse(readFileSync(path.join(desktopDir, "package.json"), "utf8"));
const expectArg = (name, want) => {
  if (arg(name) !== want) fail(`deb: fpm ${name} is ${JSON.stringify(arg(name))}, expected ${JSON.stringify(want)}`);
};
expectArg("-t", "deb");
expectArg("--name", "siglab");
expectArg("--maintainer", config.linux.maintainer);
expectArg("--url", pkg.homepage);
expectArg("--version", pkg.version);
if (!/^.+ <[^@\s]+@[^@\s]+>$/.test(config.linux.maintainer ?? "")) fail(`linux.maintainer must be "Name <email>", is ${config.linux.maintainer}`);
if (!fpmArgs.includes(`${unpacked}/=/opt/${config.productName}`)) fail(`deb: the app folder is not installed into /opt/${config.productName}`);
if (!fpmArgs.some((a) => a.endsWith("=/usr/share/applications/siglab.desktop"))) fail("deb: no siglab.desktop entry");
if (!fpmArgs.includes("--after-install")) fail("deb: no after-install script (the /usr/bin link)");
console.log(`deb: electron-builder's metadata checks passed and it handed fpm: --name ${arg("--name")} --version ${arg("--version")} --maintainer "${arg("--maintainer")}" --url ${arg("--url")}; the .deb itself needs fpm, downloaded from GitHub (not offline)`);

// 3. AppImage: electron-builder downloads the AppImage runtime and tools from GitHub; with
// APPIMAGE_TOOLS_PATH (a folder of them, electron-builder's own override) it is built here.
if (process.env.APPIMAGE_TOOLS_PATH) {
  const ai = builder(["--prepackaged", unpacked, "--linux", "AppImage", `-c.directories.output=${path.join(out, "appimage")}`]);
  process.stdout.write(ai.stdout);
  process.stderr.write(ai.stderr);
  if (ai.status !== 0) fail(`electron-builder --linux AppImage failed (exit ${ai.status})`);
  console.log("AppImage built with the tools in APPIMAGE_TOOLS_PATH");
} else {
  console.log("AppImage: not built offline (electron-builder downloads the AppImage runtime and tools from GitHub; set APPIMAGE_TOOLS_PATH to a folder of them to build it here)");
}
cleanup();
