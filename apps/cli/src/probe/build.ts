/**
 * The native probe's binary: probe/siglab-probe.c compiled on demand with the system C compiler
 * (`cc -O2`; $CC or --cc name another) into a cache folder, keyed by the hash of the source, the
 * compiler and the flags, so a changed source or compiler builds again and an unchanged one is
 * reused. Then the run: the binary under a time limit, its JSON on stdout.
 *
 * Cache folder: $SIGLAB_HOME/cache/probe (default ~/.siglab/cache/probe); when that cannot be
 * created, <tmp>/siglab-probe-<uid>. Either must be a folder of this user that no one else can
 * write to, and a cached binary a regular file of this user, or the probe refuses to run it.
 */
import { createHash, randomBytes } from "node:crypto";
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, lstatSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { configDir } from "../consent.js";

/**
 * A probe that cannot be built or run (exit status 1), or a bad argument (2): the message is one
 * line, plus the compiler's output when it failed.
 */
export class ProbeError extends Error {
  constructor(
    message: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(message);
    this.name = "ProbeError";
  }
}

export const PROBE_SOURCE = resolve(import.meta.dirname, "../../../../probe/siglab-probe.c");
/** shown in messages */
export const PROBE_SOURCE_NAME = "probe/siglab-probe.c";
export const CC_FLAGS = ["-O2", "-std=gnu11"] as const;
const INSTALL_HINT = "install one (Debian/Ubuntu: apt-get install gcc libc6-dev) or name one with --cc or $CC";

export interface Compiler {
  /** the absolute path run */
  path: string;
  /** as the user named it, and where: "cc (default)", "/x/gcc (from $CC)", ... */
  named: string;
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The compiler to use: `--cc`, else $CC, else `cc`, looked up on PATH when it has no slash. */
export function resolveCompiler(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): Compiler {
  const given = flag?.trim() || env["CC"]?.trim() || "";
  const from = flag?.trim() ? "from --cc" : env["CC"]?.trim() ? "from $CC" : "the default";
  const name = given || "cc";
  const named = `'${name}' (${from})`;
  if (/\s/.test(name)) throw new ProbeError(`no C compiler: ${named} has spaces; name one executable (flags are the probe's own: ${CC_FLAGS.join(" ")})`);
  if (name.includes("/")) {
    const p = resolve(name);
    if (!executable(p)) throw new ProbeError(`no C compiler: ${named} does not exist or is not executable; the probe compiles ${PROBE_SOURCE_NAME} with it: ${INSTALL_HINT}`);
    return { path: p, named };
  }
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (!dir) continue;
    const p = join(dir, name);
    if (executable(p)) return { path: p, named };
  }
  throw new ProbeError(`no C compiler: ${named} is not on PATH; the probe compiles ${PROBE_SOURCE_NAME} with it: ${INSTALL_HINT}`);
}

function ownedPrivateFolder(dir: string): string | undefined {
  const st = lstatSync(dir);
  const uid = process.getuid?.();
  if (!st.isDirectory()) return `${dir} is not a folder`;
  if (uid !== undefined && st.uid !== uid) return `${dir} belongs to another user`;
  if (st.mode & 0o022) return `${dir} can be written by other users`;
  return undefined;
}

/** The cache folder (created 0700); throws a ProbeError when no safe one can be made. */
export function probeCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const tried: string[] = [];
  const uid = process.getuid?.() ?? "user";
  for (const dir of [join(configDir(env), "cache", "probe"), join(tmpdir(), `siglab-probe-${uid}`)]) {
    try {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const bad = ownedPrivateFolder(dir);
      if (!bad) return dir;
      tried.push(bad);
    } catch (e) {
      tried.push(`${dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  throw new ProbeError(`no folder to build the probe in (${tried.join("; ")})`);
}

/** The cache key: the source, the compiler's path and the flags. */
export function probeKey(source: string, cc: Compiler): string {
  return createHash("sha256").update(source).update("\0").update(cc.path).update("\0").update(CC_FLAGS.join(" ")).update("\0").update(process.arch).digest("hex");
}

export interface BuiltProbe {
  binary: string;
  /** sha256 of probe/siglab-probe.c */
  sourceSha256: string;
  compiler: string;
  /** false when a cached binary was reused */
  compiled: boolean;
}

/** Compiles the probe unless the cache has it; a failed compile is a ProbeError with the compiler's output. */
export function buildProbe(opts: { cc?: string; env?: NodeJS.ProcessEnv } = {}): BuiltProbe {
  const env = opts.env ?? process.env;
  if (!existsSync(PROBE_SOURCE)) throw new ProbeError(`${PROBE_SOURCE_NAME} is missing from this checkout (${PROBE_SOURCE})`);
  const cc = resolveCompiler(opts.cc, env);
  const source = readFileSync(PROBE_SOURCE, "utf8");
  const sourceSha256 = createHash("sha256").update(source).digest("hex");
  const dir = probeCacheDir(env);
  const binary = join(dir, `siglab-probe-${probeKey(source, cc).slice(0, 24)}`);
  const base = { binary, sourceSha256, compiler: cc.path };
  if (existsSync(binary)) {
    const st = lstatSync(binary);
    const uid = process.getuid?.();
    if (!st.isFile() || (uid !== undefined && st.uid !== uid) || st.mode & 0o022) throw new ProbeError(`${binary}: not a regular file of this user that only it can write; remove it to build the probe again`);
    return { ...base, compiled: false };
  }
  // compiled under a temporary name, then renamed: a concurrent build never runs a half-written file
  const tmp = `${binary}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const r = spawnSync(cc.path, [...CC_FLAGS, "-o", tmp, PROBE_SOURCE], { encoding: "utf8", timeout: 120_000, env: { ...env, LC_ALL: "C" } });
  if (r.error || r.status !== 0) {
    rmSync(tmp, { force: true });
    const out = `${r.stderr ?? ""}${r.stdout ?? ""}`.trim().split("\n").slice(0, 20).join("\n");
    const why = r.error ? ((r.error as NodeJS.ErrnoException).code === "ETIMEDOUT" ? "did not finish within 120 s" : r.error.message) : `exited with ${r.status ?? r.signal}`;
    const headers = /fatal error: .*\.h: No such file|cannot find -lc|crt1\.o/.test(out) ? " (the C library's headers are missing: apt-get install libc6-dev)" : "";
    throw new ProbeError(`compiling ${PROBE_SOURCE_NAME} with ${cc.path} ${why}${headers}${out ? `:\n${out}` : ""}`);
  }
  renameSync(tmp, binary);
  return { ...base, compiled: true };
}

export interface ProbeRunOptions {
  repeat: number;
  /** the length of one timed interval (lmbench's `enough`), microseconds */
  enoughUs: number;
  /** seconds before the probe is stopped */
  timeLimitS: number;
}

/** Runs the binary and returns its JSON document (unparsed checks are the caller's). */
export function runProbeBinary(binary: string, o: ProbeRunOptions): unknown {
  const args = ["-N", String(o.repeat), "-E", String(o.enoughUs), "-T", String(o.timeLimitS + 5)];
  const r = spawnSync(binary, args, { encoding: "utf8", timeout: o.timeLimitS * 1000, killSignal: "SIGKILL", maxBuffer: 16 * 1024 * 1024 });
  const last = (r.stderr ?? "").trim().split("\n").filter(Boolean).slice(-3).join("; ");
  if (r.error && (r.error as NodeJS.ErrnoException).code === "ETIMEDOUT") throw new ProbeError(`the probe did not finish within ${o.timeLimitS} s and was stopped (--time-limit raises it)`);
  if (r.error) throw new ProbeError(`the probe could not run (${r.error.message})`);
  if (r.status !== 0) throw new ProbeError(`the probe failed (${r.status !== null ? `exit ${r.status}` : `killed by ${r.signal}`})${last ? `: ${last}` : ""}`);
  try {
    return JSON.parse(r.stdout);
  } catch (e) {
    throw new ProbeError(`the probe printed no valid JSON (${(e as Error).message})`);
  }
}
