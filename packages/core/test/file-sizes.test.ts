/**
 * Issue 28's bounds on the simulator's files, kept as a test so that a merge cannot grow them back
 * unnoticed: no source file in packages/core/src above 500 lines except the op tables and generated
 * files; runtime/thread.ts at most 600, kernel/kernel.ts at most 400.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

const SRC = join(import.meta.dirname, "../src");
/** op tables (one entry per system call or path) and generated files, which may be long */
const EXEMPT = new Set(["arch/i386/paths/syscalls.ts", "kernel/text-sizes.generated.ts"]);
const BOUND: Record<string, number> = { "runtime/thread.ts": 600, "kernel/kernel.ts": 400 };

function sources(): string[] {
  return readdirSync(SRC, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && d.name.endsWith(".ts") && !d.name.endsWith(".d.ts"))
    .map((d) => relative(SRC, join(d.parentPath, d.name)).split("\\").join("/"));
}

describe("the simulator's file sizes (issue 28)", () => {
  it("keeps every source file within its bound", () => {
    const over = sources()
      .filter((f) => !EXEMPT.has(f))
      .map((f) => ({ f, lines: readFileSync(join(SRC, f), "utf8").split("\n").length - 1, bound: BOUND[f] ?? 500 }))
      .filter((x) => x.lines > x.bound)
      .map((x) => `${x.f}: ${x.lines} lines (at most ${x.bound})`);
    expect(over).toEqual([]);
    expect(sources()).toContain("kernel/kernel.ts");
  });
});
