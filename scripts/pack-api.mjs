#!/usr/bin/env node
/**
 * `pnpm pack:api [--out DIR] [--no-build] [--force]`: the two packages a plugin author installs,
 * @siglab/plugin-api and @siglab/plugin-harness, as the tarballs a release publishes
 * (`pnpm --filter <pkg> pack`: prepack builds dist/, publishConfig's exports replace the
 * workspace's, `workspace:` ranges become versions), written to dist/packages/ (or DIR).
 *
 * Each tarball is checked before it is kept: its package.json names no `workspace:` range and no
 * src/ file, and every file its exports and types name is in it. A tarball already in DIR with
 * other contents is not replaced without --force (pnpm orders package.json's dependencies
 * differently from one pack to the next: the same files and the same package.json are the same). --no-build packs the
 * dist/ already built (tests: rebuilding would pull dist/ from under other tests reading it).
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync } from "node:zlib";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const PACKAGES = ["@siglab/plugin-api", "@siglab/plugin-harness"];

function usage(message) {
  console.error(`pack:api: ${message}\nusage: pnpm pack:api [--out DIR] [--no-build] [--force]`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let out = join(ROOT, "dist/packages");
let build = true;
let force = false;
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  if (a === "--out") out = resolve(argv[++i] ?? usage("--out needs a folder"));
  else if (a === "--no-build") build = false;
  else if (a === "--force") force = true;
  else usage(`unknown argument '${a}'`);
}

/** The files a packed package.json points at: exports' targets and types. */
function namedFiles(pkg) {
  const files = new Set();
  const walk = (v) => (typeof v === "string" ? files.add(v.replace(/^\.\//, "")) : v && typeof v === "object" && Object.values(v).forEach(walk));
  walk(pkg.exports);
  if (pkg.types) files.add(pkg.types.replace(/^\.\//, ""));
  if (pkg.main) files.add(pkg.main.replace(/^\.\//, ""));
  return [...files];
}

/** Problems with a tarball as a published package (none: []). */
function check(tgz) {
  const tar = (...args) => spawnSync("tar", args, { encoding: "utf8", maxBuffer: 64 << 20 });
  const listing = tar("-tzf", tgz).stdout.split("\n").filter(Boolean).map((f) => f.replace(/^package\//, ""));
  const pkg = JSON.parse(tar("-xzOf", tgz, "package/package.json").stdout);
  const problems = [];
  const text = JSON.stringify({ ...pkg, scripts: undefined, devDependencies: undefined });
  if (text.includes("workspace:")) problems.push("its package.json still has a workspace: range");
  for (const f of namedFiles(pkg)) {
    if (f.startsWith("src/")) problems.push(`its package.json points at ${f} (the source, not published)`);
    else if (!listing.includes(f)) problems.push(`its package.json names ${f}, which it does not contain`);
  }
  for (const f of ["README.md", "LICENSE"]) if (!listing.includes(f)) problems.push(`no ${f}`);
  return { pkg, problems, files: listing.length };
}

/** A tarball's files (ustar: 512-byte headers, contents padded to 512). */
function tarFiles(bytes) {
  const tar = gunzipSync(bytes);
  const files = new Map();
  for (let at = 0; at + 512 <= tar.length && tar[at] !== 0; ) {
    const name = tar.subarray(at, at + 100).toString("utf8").replace(/\0.*$/s, "");
    const prefix = tar.subarray(at + 345, at + 500).toString("utf8").replace(/\0.*$/s, "");
    const size = parseInt(tar.subarray(at + 124, at + 136).toString("utf8").replace(/\0.*$/s, "").trim() || "0", 8);
    files.set(prefix ? `${prefix}/${name}` : name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** What a tarball publishes, in a form that does not depend on pnpm's order of package.json's keys. */
function contentDigest(bytes) {
  const sorted = (v) => (Array.isArray(v) ? v.map(sorted) : v && typeof v === "object" ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, sorted(v[k])])) : v);
  const h = createHash("sha256");
  for (const [name, data] of [...tarFiles(bytes)].sort(([a], [b]) => (a < b ? -1 : 1))) {
    h.update(`${name}\0`);
    h.update(name === "package/package.json" ? JSON.stringify(sorted(JSON.parse(data.toString("utf8")))) : data);
  }
  return h.digest("hex");
}

mkdirSync(out, { recursive: true });
const staging = mkdtempSync(join(out, ".pack-"));
let failed = false;
try {
  for (const name of PACKAGES) {
    const before = new Set(readdirSync(staging));
    // (pnpm pack has no --ignore-scripts: the setting skips prepack's build)
    const env = { ...process.env, ...(build ? {} : { npm_config_ignore_scripts: "true" }) };
    const r = spawnSync("pnpm", ["--filter", name, "pack", "--pack-destination", staging], { cwd: ROOT, encoding: "utf8", env, stdio: ["ignore", "pipe", "inherit"] });
    const made = readdirSync(staging).filter((f) => !before.has(f));
    if (r.status !== 0 || made.length !== 1) {
      console.error(`pack:api: pnpm --filter ${name} pack failed (exit ${r.status})\n${r.stdout ?? ""}`);
      failed = true;
      continue;
    }
    const tgz = join(staging, made[0]);
    const { pkg, problems, files } = check(tgz);
    if (problems.length) {
      console.error(`pack:api: ${made[0]} is not publishable: ${problems.join("; ")}`);
      failed = true;
      continue;
    }
    const dest = join(out, made[0]);
    const bytes = readFileSync(tgz);
    const sha256 = createHash("sha256").update(bytes).digest("hex");
    if (existsSync(dest) && contentDigest(readFileSync(dest)) !== contentDigest(bytes) && !force) {
      console.error(`pack:api: ${dest} exists with other contents; not replaced (--force to replace it)`);
      failed = true;
      continue;
    }
    renameSync(tgz, dest);
    console.log(`${relative(process.cwd(), dest) || dest}  ${pkg.name}@${pkg.version}  ${files} files, ${bytes.length} bytes, sha256 ${sha256}`);
    if (!pkg.repository) console.log(`  (no "repository" in package.json: add the public repository's URL before \`npm publish --provenance\`, which checks it)`);
  }
} finally {
  rmSync(staging, { recursive: true, force: true });
}
if (failed) process.exit(1);
console.log(`\nin a plugin's folder, until they are on the npm registry (docs/plugin-authoring.md, "Install the API"):
  npm install --save-dev ${join(out, "siglab-plugin-api-*.tgz")} ${join(out, "siglab-plugin-harness-*.tgz")}
  or, with pnpm, package.json's "pnpm": { "overrides": { "@siglab/plugin-api": "file:<its tarball>", "@siglab/plugin-harness": "file:<its tarball>" } }, then pnpm install`);
