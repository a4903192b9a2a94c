/** Kernel.run/runN as plugins call them: anything but a path name or a core handle is an unknown path, reported as the plugin's error. */
import { describe, expect, it } from "vitest";
import type { Kernel, LoadedPlugin } from "../src/index.js";
import { runSource, setupPlugin } from "./harness.js";

const W = `import { workload } from "siglab";
export default workload({ name: "t", params: {}, *main(t) { yield* t.getpid(); } });`;

function runsAtSetup(arg: () => unknown, n?: number, internal = false): LoadedPlugin {
  // `internal`: the core's runRef/runNRef, which a plugin can reach on the kernel object too
  const k6 = (k: Kernel) => k as unknown as { runRef(r: unknown): void; runNRef(r: unknown, n: number): void };
  return setupPlugin("bad-run", (k: Kernel) =>
    internal ? (n === undefined ? k6(k).runRef(arg()) : k6(k).runNRef(arg(), n)) : n === undefined ? k.run(arg() as string) : k.runN(arg() as string, n),
  );
}

describe("Kernel.run with what a plugin may pass", () => {
  const cases: [string, () => unknown, string][] = [
    ["undefined", () => undefined, "unknown kernel path 'undefined'"],
    ["null", () => null, "unknown kernel path '(null, not a path name)'"],
    ["a forged handle", () => ({ name: "system_call", id: 0 }), "unknown kernel path '(an object, not a path name)'"],
    ["an array index name", () => ({ id: "length" }), "unknown kernel path '(an object, not a path name)'"],
    ["a number", () => 7, "unknown kernel path '7'"],
  ];
  for (const [what, arg, message] of cases) {
    for (const [n, internal] of [[undefined, false], [3, false], [undefined, true], [3, true]] as const) {
      // runRef trusts a handle whose slot is already resolved (it runs that real path): a forged
      // copy of a core handle is refused only by run's check
      if (internal && what === "a forged handle") continue;
      const name = `${internal ? "runRef" : "run"}${n === undefined ? "" : "N"}`;
      it(`${name}(${what}) is an error naming the argument, not a host TypeError`, () => {
        const r = runSource(W, { plugins: [runsAtSetup(arg, n, internal)], variants: [{ id: "bad-run" }] });
        expect(r.error?.message).toContain(message);
        expect(r.error?.message).not.toMatch(/Cannot read properties/);
      });
    }
  }
});

describe("the SMP scheduler API with what a plugin may pass", () => {
  const calls: [string, (k: Kernel) => unknown, RegExp][] = [
    ["resched_cpu({})", (k) => k.resched_cpu?.({} as never), /resched_cpu: not a CPU of this machine/],
    ["is_cpu_allowed(undefined, cpu)", (k) => k.is_cpu_allowed?.(undefined as never, k.cpu), /is_cpu_allowed: expected a task and a CPU of this machine, got undefined and a CPU/],
    ["is_cpu_allowed(task, {})", (k) => k.is_cpu_allowed?.(k.current, {} as never), /is_cpu_allowed: expected a task and a CPU of this machine, got a task and object/],
  ];
  for (const [what, call, message] of calls) {
    it(`${what} is a plugin error naming the call, not a host TypeError`, () => {
      const plugin = setupPlugin("bad-smp", (k) => void call(k), "2.2");
      const r = runSource(W, { plugins: [plugin], variants: [{ id: "bad-smp" }] });
      expect(r.error?.kind).toBe("plugin");
      expect(r.error?.message).toMatch(message);
    });
  }
});

describe("Kernel.pathHandle (API 2.2)", () => {
  /** a plugin that calls `use(k)` at setup, and runs the workload */
  function run(use: (k: Kernel) => void) {
    const plugin = setupPlugin("handles", use, "2.2");
    return runSource(W, { plugins: [plugin], variants: [{ id: "handles" }] });
  }
  const count = (r: ReturnType<typeof run>, name: string) => r.paths.find((p) => p.name === name)?.count ?? 0;

  it("runs the path it names, as run(name) does (one handle per name)", () => {
    const base = run(() => {});
    const r = run((k) => {
      const h = k.pathHandle!("sys_getppid");
      expect(k.pathHandle!("sys_getppid")).toBe(h);
      k.run(h);
      k.runN(h, 2);
      k.run("sys_getppid");
    });
    expect(r.error).toBeUndefined();
    expect(count(r, "sys_getppid") - count(base, "sys_getppid")).toBe(4);
  });

  it("refuses an unknown name when asked for the handle", () => {
    expect(run((k) => void k.pathHandle!("no_such_path")).error?.message).toContain("unknown kernel path 'no_such_path'");
    expect(run((k) => void k.pathHandle!({} as never)).error?.message).toContain("unknown kernel path '(an object, not a path name)'");
  });

  it("refuses a handle another run's kernel made, and a copy of a handle", () => {
    let stale: unknown;
    run((k) => void (stale = k.pathHandle!("sys_getppid")));
    expect(run((k) => k.run(stale as never)).error?.message).toContain("unknown kernel path '(an object, not a path name)'");
    expect(run((k) => k.run({ ...(k.pathHandle!("sys_getppid") as object) } as never)).error?.message).toContain("unknown kernel path '(an object, not a path name)'");
  });
});
