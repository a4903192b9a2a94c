/**
 * `siglab plugin dev <dir> [--baseline]`: the plugin author's watch loop. Builds the plugin with its
 * own build script (`npm run build`), then runs each of its examples with it (`siglab run <example>
 * --plugin-dir <dir> --variant <id>`), and does it again whenever a source file changes, until
 * Ctrl-C. Both steps are child processes: a build error or a failing run is printed (the run's
 * errors carry the CLI's source-mapped `src/…ts:line:col`), and the loop waits for the next change;
 * the plugin is loaded fresh each time. A change during a cycle stops it and starts a new one (the
 * newest sources win); changes are debounced, so one save of several files is one cycle.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve, sep } from "node:path";
import { listPlugins, type ExampleRef } from "../plugins/catalog.js";
import { watchTree, type TreeWatch } from "../plugins/watch-tree.js";
import { oneLine } from "../terminal.js";
import type { PluginsIo } from "../plugins/io.js";

export interface PluginDevOptions {
  /** also run each example without the plugin (`siglab run --baseline`) */
  baseline?: boolean;
  /** quiet time after the last change before a cycle starts */
  debounceMs?: number;
  /** how to run the CLI for the examples (default: this CLI, the same node and entry script) */
  siglab?: string[];
}

/** A running watch loop: `stop()` ends it (Ctrl-C does), `done` resolves with the exit code. */
export interface PluginDevSession {
  stop(): void;
  done: Promise<number>;
}

/** Not sources: dependencies, build outputs (dot folders and files are skipped too). */
const IGNORED_DIRS = new Set(["node_modules", "dist"]);
const IGNORED_FILE = /(\.tsbuildinfo|~|\.sw[a-z]|^4913)$/;

const time = () => new Date().toTimeString().slice(0, 8);

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** `--variant` arguments for an example: the stack it suggests, or the plugin alone. */
function stackArgs(id: string, ex: ExampleRef): string[] {
  const stack = ex.suggestedVariants?.length ? ex.suggestedVariants : [{ id }];
  const opts = (o?: Record<string, unknown>) => (o && Object.keys(o).length ? `:${Object.entries(o).map(([k, v]) => `${k}=${String(v)}`).join(",")}` : "");
  return [...stack.flatMap((v) => ["--variant", `${v.id}${opts(v.options)}`]), ...(ex.suggestedCpu ? ["--cpu", ex.suggestedCpu.id] : [])];
}

/** Starts the loop on `dir`, or returns an exit code when there is nothing to watch. */
export function startPluginDev(dirArg: string | undefined, opts: PluginDevOptions, io: PluginsIo): PluginDevSession | number {
  if (!dirArg) {
    io.error("siglab plugin dev: which plugin folder? e.g. `siglab plugin dev .`");
    return 2;
  }
  const dir = resolve(dirArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    io.error(`siglab plugin dev: ${dir}: no such folder`);
    return 2;
  }
  const manifest = readJson(resolve(dir, "plugin.json"));
  const id = typeof manifest?.["id"] === "string" ? manifest["id"] : undefined;
  if (!id) {
    io.error(`siglab plugin dev: ${resolve(dir, "plugin.json")}: ${manifest ? "has no \"id\"" : "missing or not JSON"} (a plugin folder holds its manifest; \`siglab plugin new\` writes one)`);
    return 2;
  }
  const siglab = opts.siglab ?? [process.execPath, process.argv[1]!];
  const debounceMs = opts.debounceMs ?? 300;
  // the manifest's "main" is the build's output: its folder (or, at the top, the file and its map)
  // changes when the build writes it, which must not start another build
  const main = typeof manifest?.["main"] === "string" ? String(manifest["main"]).replace(/^\.\//, "").split("/") : [];
  const ignored = new Set(IGNORED_DIRS);
  if (main.length > 1) ignored.add(main[0]!);
  else if (main.length === 1) for (const f of [main[0]!, `${main[0]}.map`]) ignored.add(f);

  let stopped = false;
  let generation = 0; // bumped by each change: a cycle of an older generation gives up
  let child: ChildProcess | undefined;
  const killChild = () => {
    const p = child;
    if (!p?.pid || p.exitCode !== null) return;
    try {
      if (process.platform === "win32") p.kill("SIGTERM");
      else process.kill(-p.pid, "SIGTERM");
    } catch {
      /* already gone */
    }
  };
  let timer: NodeJS.Timeout | undefined;
  let cycle: Promise<void> = Promise.resolve();
  let finish!: (code: number) => void;
  const done = new Promise<number>((r) => (finish = r));

  /** Runs a child, its output line by line to io; resolves with its exit code (or null if stopped). */
  const runChild = (cmd: string, args: string[]): Promise<number | null> =>
    new Promise((resolveRun) => {
      // a process group of its own: stopping a stale cycle stops the build's tsc and esbuild too
      const p = spawn(cmd, args, { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: process.env, detached: process.platform !== "win32" });
      child = p;
      const lines = (to: (l: string) => void) => {
        let rest = "";
        return {
          data: (b: Buffer) => {
            const parts = (rest + b.toString("utf8")).split("\n");
            rest = parts.pop()!;
            for (const l of parts) to(l);
          },
          end: () => rest && to(rest),
        };
      };
      const out = lines((l) => io.log(l));
      const err = lines((l) => io.error(l));
      p.stdout!.on("data", out.data);
      p.stderr!.on("data", err.data);
      p.on("error", (e) => {
        io.error(`siglab plugin dev: cannot start ${cmd}: ${e.message}`);
        resolveRun(127);
      });
      p.on("close", (code, signal) => {
        out.end();
        err.end();
        if (child === p) child = undefined;
        resolveRun(signal ? null : code);
      });
    });

  const runCycle = async (gen: number, why: string): Promise<void> => {
    const current = () => !stopped && gen === generation;
    io.log(`\n── ${time()} ${why}`);
    const scripts = readJson(resolve(dir, "package.json"))?.["scripts"] as Record<string, unknown> | undefined;
    if (typeof scripts?.["build"] === "string") {
      io.log(`── building: npm run build`);
      const code = await runChild(process.platform === "win32" ? "npm.cmd" : "npm", ["run", "--silent", "build"]);
      if (!current()) return;
      if (code !== 0) {
        io.error(`── build failed (exit ${code}): fix it and save; watching ${dir} (Ctrl-C to stop)`);
        return;
      }
    } else io.log("── no build script in package.json: running the plugin as it is");
    const { plugins, refusals } = listPlugins([dir]);
    const plugin = plugins.find((p) => !p.builtin && p.manifest.id === id && p.dir && resolve(p.dir) === dir);
    if (!plugin) {
      for (const r of refusals) io.error(`── refused: ${oneLine(r.reason)}`);
      io.error(`── ${id} cannot load (above); watching ${dir} (Ctrl-C to stop)`);
      return;
    }
    if (!plugin.examples.length) io.log(`── ${id} has no examples (examples/*.ts): nothing to run`);
    const failed: string[] = [];
    for (const ex of plugin.examples) {
      io.log(`── ${time()} siglab run ${ex.id}`);
      const args = ["run", ex.id, "--plugin-dir", dir, ...stackArgs(id, ex), "--no-cache", ...(opts.baseline ? ["--baseline"] : [])];
      const code = await runChild(siglab[0]!, [...siglab.slice(1), ...args]);
      if (!current()) return;
      if (code !== 0) failed.push(`${ex.id} (exit ${code})`);
    }
    io.log(`── ${time()} ${plugin.examples.length - failed.length} of ${plugin.examples.length} examples ran${failed.length ? `; failed: ${failed.join(", ")}` : ""}; watching ${dir} (Ctrl-C to stop)`);
  };

  const schedule = (why: string) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      const gen = ++generation;
      killChild(); // the running cycle is stale: the newest sources win
      cycle = cycle.then(() => (gen === generation && !stopped ? runCycle(gen, why) : undefined));
    }, debounceMs);
  };

  /** Not a source: a dependency, a build output, a dot file or folder, an editor's scratch file. */
  const skip = (rel: string): boolean => {
    const parts = rel.split(sep);
    return ignored.has(parts[0]!) || parts.some((s) => s.startsWith(".")) || IGNORED_FILE.test(parts.at(-1)!);
  };
  let watcher: TreeWatch;
  try {
    watcher = watchTree(dir, skip, (rel) => schedule(`changed: ${rel || dir}`), (e) => {
      io.error(`siglab plugin dev: ${dir}: ${e.message}; stopping`);
      stop(1);
    });
  } catch (e) {
    io.error(`siglab plugin dev: cannot watch ${dir}: ${(e as Error).message}`);
    return 1;
  }

  const stop = (code = 0) => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    watcher.close();
    killChild();
    void cycle.then(() => {
      io.log(`── stopped watching ${dir}`);
      finish(code);
    });
  };

  io.log(`siglab plugin dev: ${id} in ${dir}: build, then run its examples, on every change (Ctrl-C to stop)`);
  generation++;
  cycle = runCycle(generation, "start");
  return { stop: () => stop(0), done };
}

/** The command: the loop until Ctrl-C (or SIGTERM); its exit code. */
export async function pluginDev(dir: string | undefined, opts: PluginDevOptions, io: PluginsIo): Promise<number> {
  const session = startPluginDev(dir, opts, io);
  if (typeof session === "number") return session;
  const onSignal = () => session.stop();
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  try {
    return await session.done;
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
}
