/**
 * Refusals instead of silence (issue 31): a plugin that binds a system-call number the core
 * implements, and two plugins that both map a vDSO, are refused when the run loads them, with a
 * message naming both parties.
 */
import { ContainerModule } from "inversify";
import { describe, expect, it } from "vitest";
import { TOKENS, type LoadedPlugin } from "../src/index.js";
import { runExample, runSource, setupPlugin } from "./harness.js";

function syscallPlugin(id: string, nr: number): LoadedPlugin {
  return {
    manifest: { id, version: "1.0.0", apiVersion: "2.3", displayName: id, description: "t", options: {}, contributes: ["SyscallContribution"] },
    builtin: false,
    origin: `plugins/${id}`,
    module: () =>
      new ContainerModule(({ bind }) => {
        bind(TOKENS.SyscallContribution).toConstantValue({ nr, name: "mine", handler: () => 42 });
      }),
  };
}

const vdsoPlugin = (id: string) =>
  setupPlugin(id, (k) => k.mm.map_vdso!({ id: `${id}-vdso`, *gettimeofday() { return { sec: 0, usec: 0 }; } }), "2.3");

describe("a plugin binding a system-call number the core implements", () => {
  it("is refused at load, naming the plugin, the number and the core's system call", () => {
    const r = runExample("lat_syscall", { params: { iterations: 10 }, plugins: [syscallPlugin("getpid-thief", 20)], variants: [{ id: "getpid-thief" }] });
    expect(r.error).toMatchObject({ kind: "plugin" });
    expect(r.error?.message).toMatch(/^plugin 'getpid-thief' binds system call number 20, which the core implements \(getpid\)/);
    expect(r.metrics).toEqual([]);
  });

  it("a number the core leaves unused is taken (and a core number beyond the API's NR table too: ptrace)", () => {
    const ok = runSource(`import { workload } from "siglab";\nexport default workload({ name: "s", params: {}, *main(t) { t.report("r", (yield* t.syscall(251)) as number, "x"); } });\n`, { plugins: [syscallPlugin("free-slot", 251)], variants: [{ id: "free-slot" }] });
    expect(ok.error).toBeUndefined();
    expect(ok.metrics[0]?.value).toBe(42);
    const ptrace = runExample("lat_syscall", { params: { iterations: 10 }, plugins: [syscallPlugin("ptrace-thief", 26)], variants: [{ id: "ptrace-thief" }] });
    expect(ptrace.error?.message).toMatch(/^plugin 'ptrace-thief' binds system call number 26, which the core implements \(ptrace\)/);
  });
});

describe("two plugins that both map a vDSO", () => {
  it("are refused when the second maps it, naming each other", () => {
    const r = runExample("lat_syscall", { params: { iterations: 10 }, plugins: [vdsoPlugin("vdso-a"), vdsoPlugin("vdso-b")], variants: [{ id: "vdso-a" }, { id: "vdso-b" }] });
    expect(r.error).toMatchObject({ kind: "plugin" });
    expect(r.error?.message).toMatch(/plugin 'vdso-b' maps a vDSO, but plugin 'vdso-a' mapped one \('vdso-a-vdso'\) already/);
  });

  it("one plugin's vDSO is mapped as before", () => {
    const r = runExample("lat_syscall", { params: { iterations: 10 }, plugins: [vdsoPlugin("vdso-a")], variants: [{ id: "vdso-a" }] });
    expect(r.error).toBeUndefined();
  });
});
