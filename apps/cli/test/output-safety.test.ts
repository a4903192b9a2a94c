/**
 * "Outputs never destroy data": every rule of apps/cli/src/output.ts, on real files, links,
 * devices, FIFOs and sockets. Failures in the middle of a write are injected through node:fs.
 */
import { execFileSync } from "node:child_process";
import * as realFs from "node:fs";
import { linkSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync, chmodSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/** Set by a test: runs inside the named fs call of output.ts, before the real call. */
const hooks: { fsyncSync?: () => void; renameSync?: () => void; linkSync?: () => void } = {};

vi.mock("node:fs", async (importOriginal) => {
  const fs = await importOriginal<typeof import("node:fs")>();
  const wrap = <K extends keyof typeof hooks>(name: K, real: (...a: never[]) => unknown) =>
    (...args: never[]) => {
      const h = hooks[name];
      hooks[name] = undefined;
      h?.();
      return real(...args);
    };
  return {
    ...fs,
    default: fs,
    fsyncSync: wrap("fsyncSync", fs.fsyncSync as never),
    renameSync: wrap("renameSync", fs.renameSync as never),
    linkSync: wrap("linkSync", fs.linkSync as never),
  };
});

const { checkOutputTarget, OutputRefusal, writeOutputFile } = await import("../src/output.js");
const { pluginNew } = await import("../src/commands/plugins.js");

let dir: string;
beforeEach(() => {
  dir = realFs.realpathSync(mkdtempSync(join(tmpdir(), "siglab-output-")));
  for (const k of Object.keys(hooks)) delete hooks[k as keyof typeof hooks];
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const p = (...parts: string[]): string => join(dir, ...parts);
const names = (d = dir): string[] => readdirSync(d).sort();
const eio = (): never => {
  throw Object.assign(new Error("injected I/O error"), { code: "EIO" });
};

/** Expects an OutputRefusal whose message is "<file>: <reason matching re>". */
function refused(f: () => unknown, file: string, re: RegExp): void {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err, "expected a refusal").toBeInstanceOf(OutputRefusal);
  expect((err as Error).message.startsWith(`${file}: `), (err as Error).message).toBe(true);
  expect((err as Error).message).toMatch(re);
  expect((err as Error).message).not.toContain("\n");
}

describe("new and existing files", () => {
  it("writes a new file atomically and leaves no temp file", () => {
    writeOutputFile(p("a.csv"), "x,y\n");
    expect(readFileSync(p("a.csv"), "utf8")).toBe("x,y\n");
    expect(names()).toEqual(["a.csv"]);
  });

  it("refuses an existing file without --force, replaces it with --force (keeping its mode)", () => {
    writeFileSync(p("a.csv"), "old");
    chmodSync(p("a.csv"), 0o600);
    refused(() => writeOutputFile(p("a.csv"), "new"), p("a.csv"), /already exists; use --force to replace it/);
    refused(() => checkOutputTarget(p("a.csv")), p("a.csv"), /use --force/);
    expect(readFileSync(p("a.csv"), "utf8")).toBe("old");
    writeOutputFile(p("a.csv"), "new", { force: true });
    expect(readFileSync(p("a.csv"), "utf8")).toBe("new");
    expect(statSync(p("a.csv")).mode & 0o777).toBe(0o600);
    expect(names()).toEqual(["a.csv"]);
  });
});

describe("inputs of the command are never written over, even with --force", () => {
  beforeEach(() => {
    mkdirSync(p("sub"));
    writeFileSync(p("b.siglab"), "bundle");
  });
  const inputs = (): string[] => [p("b.siglab")];

  it("by path", () => {
    refused(() => writeOutputFile(p("b.siglab"), "x", { force: true, inputs: inputs() }), p("b.siglab"), /is .*b\.siglab, an input of this command.*even with --force/);
  });

  it("by a path with ..", () => {
    const dotted = `${p("sub")}/../b.siglab`;
    refused(() => writeOutputFile(dotted, "x", { force: true, inputs: inputs() }), dotted, /an input of this command/);
  });

  it("by a hard link", () => {
    linkSync(p("b.siglab"), p("hard.siglab"));
    refused(() => writeOutputFile(p("hard.siglab"), "x", { force: true, inputs: inputs() }), p("hard.siglab"), /same file as .*b\.siglab \(a hard link\)/);
  });

  it("by a symlink (the output a link to the input, or the input given as a link)", () => {
    symlinkSync(p("b.siglab"), p("link.siglab"));
    refused(() => writeOutputFile(p("link.siglab"), "x", { force: true, inputs: inputs() }), p("link.siglab"), /an input of this command/);
    refused(() => writeOutputFile(p("b.siglab"), "x", { force: true, inputs: [p("link.siglab")] }), p("b.siglab"), /an input of this command/);
  });

  it("files in an input folder (--plugin-dir), also through a hard link; a new file there is fine", () => {
    mkdirSync(p("plugins", "mine", "dist"), { recursive: true });
    writeFileSync(p("plugins", "mine", "dist", "index.js"), "code");
    const opts = { force: true, inputs: [p("plugins")] };
    refused(() => writeOutputFile(p("plugins", "mine", "dist", "index.js"), "x", opts), p("plugins", "mine", "dist", "index.js"), /inside .*plugins, an input folder/);
    linkSync(p("plugins", "mine", "dist", "index.js"), p("elsewhere.js"));
    refused(() => writeOutputFile(p("elsewhere.js"), "x", opts), p("elsewhere.js"), /same file as .*index\.js \(a hard link\) in .*plugins, an input folder/);
    writeOutputFile(p("plugins", "new.siglab"), "ok", opts);
    expect(readFileSync(p("plugins", "mine", "dist", "index.js"), "utf8")).toBe("code");
  });

  afterEach(() => {
    if (realFs.existsSync(p("b.siglab"))) expect(readFileSync(p("b.siglab"), "utf8")).toBe("bundle");
    expect(names().filter((n) => n.endsWith(".tmp"))).toEqual([]);
  });
});

describe("non-regular targets are always refused", () => {
  it("a directory, with or without --force, also named with a trailing slash", () => {
    mkdirSync(p("out"));
    for (const force of [false, true]) refused(() => writeOutputFile(p("out"), "x", { force }), p("out"), /is a directory/);
    refused(() => writeOutputFile(p("new") + "/", "x", { force: true }), p("new") + "/", /names a folder/);
    expect(names()).toEqual(["out"]);
  });

  it("/dev/null and /dev/full (devices)", () => {
    for (const dev of ["/dev/null", "/dev/full"]) refused(() => writeOutputFile(dev, "x", { force: true }), dev, /is a device/);
    expect(readdirSync("/dev").filter((n) => n.startsWith(".null.") || n.startsWith(".full."))).toEqual([]);
  });

  it("a FIFO made with mkfifo", () => {
    execFileSync("mkfifo", [p("fifo")]);
    refused(() => writeOutputFile(p("fifo"), "x", { force: true }), p("fifo"), /is a FIFO/);
    expect(lstatSync(p("fifo")).isFIFO()).toBe(true);
    expect(names()).toEqual(["fifo"]);
  });

  it("a socket", async () => {
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(p("sock"), resolve));
    try {
      refused(() => writeOutputFile(p("sock"), "x", { force: true }), p("sock"), /is a socket/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("symlink targets", () => {
  beforeEach(() => {
    mkdirSync(p("real"));
    writeFileSync(p("real", "t.csv"), "old");
    symlinkSync(p("real", "t.csv"), p("link.csv"));
  });

  it("are refused without --force", () => {
    refused(() => writeOutputFile(p("link.csv"), "new"), p("link.csv"), /is a symbolic link \(to .*t\.csv\); use --force/);
    expect(readFileSync(p("real", "t.csv"), "utf8")).toBe("old");
  });

  it("with --force, replace the real target's contents and keep the link", () => {
    const plan = writeOutputFile(p("link.csv"), "new", { force: true });
    expect(plan.real).toBe(p("real", "t.csv"));
    expect(lstatSync(p("link.csv")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(p("link.csv"))).toBe(p("real", "t.csv"));
    expect(readFileSync(p("real", "t.csv"), "utf8")).toBe("new");
    expect(names(p("real"))).toEqual(["t.csv"]);
  });

  it("with --force, apply the rules to the real target: a link to a directory, a device or an input is refused", () => {
    symlinkSync(p("real"), p("dirlink"));
    refused(() => writeOutputFile(p("dirlink"), "x", { force: true }), p("dirlink"), /symbolic link to .*real, which is a directory/);
    symlinkSync("/dev/null", p("null.csv"));
    refused(() => writeOutputFile(p("null.csv"), "x", { force: true }), p("null.csv"), /which is a device/);
    refused(() => writeOutputFile(p("link.csv"), "x", { force: true, inputs: [p("real", "t.csv")] }), p("link.csv"), /an input of this command/);
    expect(readFileSync(p("real", "t.csv"), "utf8")).toBe("old");
  });

  it("with --force, a dangling link creates the file it points to", () => {
    symlinkSync(p("real", "new.csv"), p("dangling.csv"));
    writeOutputFile(p("dangling.csv"), "fresh", { force: true });
    expect(readFileSync(p("real", "new.csv"), "utf8")).toBe("fresh");
    expect(lstatSync(p("dangling.csv")).isSymbolicLink()).toBe(true);
  });
});

describe("folders and temp files", () => {
  it("a missing parent folder is a clear refusal", () => {
    refused(() => writeOutputFile(p("missing", "a.csv"), "x"), p("missing", "a.csv"), /folder .*missing does not exist/);
    writeFileSync(p("file"), "");
    refused(() => writeOutputFile(p("file", "a.csv"), "x"), p("file", "a.csv"), /is not a folder/);
    expect(names()).toEqual(["file"]);
  });

  it("removes the temp file when fsync fails, and keeps the old contents", () => {
    writeFileSync(p("a.csv"), "old");
    hooks.fsyncSync = eio;
    expect(() => writeOutputFile(p("a.csv"), "new", { force: true })).toThrow(/a\.csv: cannot write \(EIO\)/);
    expect(names()).toEqual(["a.csv"]);
    expect(readFileSync(p("a.csv"), "utf8")).toBe("old");
  });

  it("removes the temp file when the rename fails", () => {
    hooks.renameSync = eio;
    expect(() => writeOutputFile(p("a.csv"), "new", { force: true })).toThrow(/cannot write \(EIO\)/);
    expect(names()).toEqual([]);
  });

  it("does not replace a file that appeared while writing (no --force), and cleans up", () => {
    hooks.fsyncSync = () => writeFileSync(p("a.csv"), "theirs");
    refused(() => writeOutputFile(p("a.csv"), "mine"), p("a.csv"), /already exists; use --force/);
    expect(readFileSync(p("a.csv"), "utf8")).toBe("theirs");
    expect(names()).toEqual(["a.csv"]);
  });

  it("the final no-replace step itself refuses an existing name (link fails with EEXIST)", () => {
    hooks.linkSync = () => writeFileSync(p("a.csv"), "theirs");
    refused(() => writeOutputFile(p("a.csv"), "mine"), p("a.csv"), /already exists/);
    expect(readFileSync(p("a.csv"), "utf8")).toBe("theirs");
    expect(names()).toEqual(["a.csv"]);
  });

  it("refuses a target that became a directory while writing (--force), and cleans up", () => {
    hooks.fsyncSync = () => mkdirSync(p("a.csv"));
    refused(() => writeOutputFile(p("a.csv"), "mine", { force: true }), p("a.csv"), /became a directory/);
    expect(names()).toEqual(["a.csv"]);
    expect(lstatSync(p("a.csv")).isDirectory()).toBe(true);
  });

  it("leaves no temp file after any refusal", () => {
    writeFileSync(p("b.siglab"), "bundle");
    mkdirSync(p("d"));
    for (const [target, opts] of [
      [p("b.siglab"), {}],
      [p("b.siglab"), { force: true, inputs: [p("b.siglab")] }],
      [p("d"), { force: true }],
    ] as const) {
      expect(() => writeOutputFile(target, "x", opts)).toThrow(OutputRefusal);
    }
    expect(names()).toEqual(["b.siglab", "d"]);
    expect(names(p("d"))).toEqual([]);
  });
});

describe("siglab plugin new: the target folder must be new or empty", () => {
  const capture = () => {
    const err: string[] = [];
    return { io: { log: () => undefined, error: (l: string) => err.push(l) }, err };
  };

  it("refuses a symlink (writing nothing through it), a file and a non-empty folder; accepts an empty folder", () => {
    mkdirSync(p("elsewhere"));
    symlinkSync(p("elsewhere"), p("linked"));
    const a = capture();
    expect(pluginNew("linked", { dir: dir }, a.io)).toBe(2);
    expect(a.err).toEqual([`siglab plugin new: ${p("linked")}: is a symbolic link; refusing to create files through it`]);
    expect(names(p("elsewhere"))).toEqual([]);
    writeFileSync(p("afile"), "mine");
    const b = capture();
    expect(pluginNew("afile", { dir: dir }, b.io)).toBe(2);
    expect(b.err[0]).toMatch(/afile already exists \(and is not a folder\); refusing to overwrite it/);
    expect(readFileSync(p("afile"), "utf8")).toBe("mine");
    mkdirSync(p("empty"));
    expect(pluginNew("empty", { dir: dir }, capture().io)).toBe(0);
    expect(names(p("empty"))).toContain("plugin.json");
    const c = capture();
    expect(pluginNew("empty", { dir: dir }, c.io)).toBe(2); // no longer empty
    expect(c.err[0]).toMatch(/empty already exists; refusing to overwrite it/);
  });
});
