import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PRESETS } from "../../../builtin-plugins/src/index.js";
import { runExample, runSource, metric, pathCount } from "../../../core/test/harness.js";
import type { RunResult } from "@siglab/plugin-api";
import linux6, { sigframeBottom } from "../src/index.js";

type Opts = Record<string, string | number | boolean>;
const l6 = (cpu: string, options: Opts = {}) => ({ cpu, mhz: cpuMhz[cpu], plugins: [linux6], variants: [{ id: "linux6", options }] });
const cpuMhz: Record<string, number> = { skylake: 3600, "skylake-x": 3300, zen4: 4500, zen5: 4300 };

/** CR3 writes charged in a run: Σ path count × the mov_cr3 repeats of its ops. */
function cr3Writes(r: RunResult): number {
  return r.paths.reduce((s, p) => s + p.count * p.ops.filter((o) => o.op === "mov_cr3").reduce((a, o) => a + o.repeat, 0), 0);
}
const example = (id: string) => linux6.examples!.find((e) => e.id === id)!.source;

describe("linux6: the preset", () => {
  it("linux-6 is a preset of the built-in plugins whose stack is the linux6 plugin", () => {
    const p = PRESETS.find((x) => x.id === "linux-6");
    expect(p).toBeDefined();
    expect(p!.stack).toEqual([{ id: "linux6" }]);
  });

  it("loads and runs on the four modern profiles, and refuses a CPU without long mode", () => {
    for (const cpu of ["skylake", "skylake-x", "zen4", "zen5"]) {
      const r = runExample("lat_syscall", { params: { iterations: 200 }, ...l6(cpu) });
      expect(r.error, cpu).toBeUndefined();
      expect(r.variants.map((v) => v.id)).toEqual(["linux6"]);
    }
    const old = runExample("lat_syscall", { params: { iterations: 10 }, plugins: [linux6], variants: [{ id: "linux6" }] }); // p4-northwood
    expect(old.error?.message).toMatch(/long mode/);
  });
});

describe("linux6: entry_SYSCALL_64", () => {
  it("a null syscall enters with SYSCALL and leaves with SYSRET, never int $0x80/iret", () => {
    const n = 500;
    const r = runExample("lat_syscall", { params: { iterations: n }, ...l6("zen4") });
    expect(r.error).toBeUndefined();
    expect(r.paths.find((p) => p.name === "entry_SYSCALL_64")!.ops.map((o) => o.op)).toContain("syscall");
    expect(r.paths.find((p) => p.name === "sysretq")!.ops.map((o) => o.op)).toEqual(["sysret"]);
    expect(pathCount(r, "sysretq")).toBeGreaterThanOrEqual(n);
    expect(pathCount(r, "system_call")).toBe(0);
    expect(pathCount(r, "iretq")).toBeLessThan(3);
    expect(r.paths.find((p) => p.name === "entry_SYSCALL_64")!.origin).toBe("linux6");
  });

  it("signal delivery and rt_sigreturn change pt_regs, so both return through IRET", () => {
    const r = runExample("lat_sig_catch", { params: { iterations: 300 }, ...l6("zen4") });
    expect(r.error).toBeUndefined();
    const signals = r.counters["signals.delivered"] ?? r.counters["linux6.sigframe_xsaves"]!;
    expect(signals).toBeGreaterThanOrEqual(299);
    // one IRET into the handler, one out of rt_sigreturn, per signal
    expect(r.counters["linux6.iret_exits"]).toBeGreaterThanOrEqual(2 * signals);
    expect(pathCount(r, "iretq")).toBeGreaterThanOrEqual(2 * signals);
    expect(r.paths.find((p) => p.name === "iretq")!.ops.map((o) => o.op)).toEqual(["iret_user"]);
    // the kill(me, 0) loop has no work: SYSRET
    expect(r.counters["linux6.sysret_exits"]).toBeGreaterThan(290);
  });
});

describe("linux6: mitigations", () => {
  it("pti adds exactly two CR3 writes per system call, and pti=off removes them", () => {
    const n = 400;
    const on = runExample("lat_syscall", { params: { iterations: n }, ...l6("skylake", { pti: "on" }) });
    const off = runExample("lat_syscall", { params: { iterations: n }, ...l6("skylake", { pti: "off" }) });
    expect(on.error).toBeUndefined();
    expect(off.error).toBeUndefined();
    const syscalls = on.counters["linux6.pti_entries"]!;
    expect(syscalls).toBeGreaterThanOrEqual(n);
    expect(off.counters["linux6.pti_entries"]).toBeUndefined();
    // one CR3 write on the way in, one on the way out; the final exit() enters and never returns
    const returns = on.counters["linux6.sysret_exits"]! + (on.counters["linux6.iret_exits"] ?? 0);
    expect(syscalls - returns).toBe(1);
    expect(pathCount(on, "SWITCH_TO_KERNEL_CR3")).toBe(syscalls);
    expect(pathCount(on, "SWITCH_TO_USER_CR3")).toBe(returns);
    expect(cr3Writes(on) - cr3Writes(off)).toBe(syscalls + returns);
    expect(pathCount(off, "SWITCH_TO_KERNEL_CR3") + pathCount(off, "SWITCH_TO_USER_CR3")).toBe(0);
    expect(metric(on, "getppid")).toBeGreaterThan(metric(off, "getppid") + 2 * 124 - 1); // two mov_cr3 at 124 on Skylake
  });

  it("the per-CPU defaults: PTI, IBRS and VERW on Skylake; none of them on Zen 4/5; SRSO untraining on Zen 4 only", () => {
    const sk = runExample("lat_syscall", { params: { iterations: 50 }, ...l6("skylake") });
    expect(sk.counters["linux6.mitigation.pti"]).toBe(1);
    expect(sk.counters["linux6.mitigation.verw"]).toBe(1);
    expect(sk.counters["linux6.mitigation.spectreV2.ibrs"]).toBe(1);
    expect(pathCount(sk, "IBRS_ENTER")).toBeGreaterThanOrEqual(50);
    expect(pathCount(sk, "CLEAR_CPU_BUFFERS")).toBeGreaterThanOrEqual(50);
    for (const cpu of ["zen4", "zen5"]) {
      const z = runExample("lat_syscall", { params: { iterations: 50 }, ...l6(cpu) });
      expect(z.counters["linux6.mitigation.pti"], cpu).toBeUndefined();
      expect(z.counters["linux6.mitigation.spectreV2.eibrs"], cpu).toBe(1);
      // the only CR3 writes: switch_mm's, and the exit's (the core's 2.4 exit_mmap runs under linux6: tlb_finish_mmu per vma, flush_tlb_mm)
      expect(pathCount(z, "tlb_finish_mmu"), cpu).toBe(2);
      expect(cr3Writes(z) - pathCount(z, "switch_mm") - pathCount(z, "tlb_finish_mmu") - pathCount(z, "exit_mmap.flush_tlb_mm"), cpu).toBe(0);
      expect(pathCount(z, "CLEAR_CPU_BUFFERS"), cpu).toBe(0);
      expect(pathCount(z, "UNTRAIN_RET") > 0, cpu).toBe(cpu === "zen4");
    }
  });

  it("each mitigation can be switched off, and each one costs cycles", () => {
    const base = metric(runExample("lat_syscall", { params: { iterations: 200 }, ...l6("skylake") }), "getppid");
    for (const off of [{ pti: "off" }, { spectreV2: "off" }, { verw: "off" }] as Opts[]) {
      const r = runExample("lat_syscall", { params: { iterations: 200 }, ...l6("skylake", off) });
      expect(metric(r, "getppid"), JSON.stringify(off)).toBeLessThan(base);
    }
    const zen4 = metric(runExample("lat_syscall", { params: { iterations: 200 }, ...l6("zen4") }), "getppid");
    const zen4Off = metric(runExample("lat_syscall", { params: { iterations: 200 }, ...l6("zen4", { retbleedUntrain: "off" }) }), "getppid");
    expect(zen4Off).toBeLessThan(zen4);
  });

  it("nopcid: the PTI CR3 writes flush the TLB, so the user's pages miss after every syscall", () => {
    const pcid = runExample("lat_syscall", { params: { iterations: 100 }, ...l6("skylake") });
    const nopcid = runExample("lat_syscall", { params: { iterations: 100 }, ...l6("skylake", { pcid: "off" }) });
    expect(nopcid.counters["tlb.flushes"]!).toBeGreaterThanOrEqual(100);
    expect(pcid.counters["tlb.flushes"] ?? 0).toBeLessThan(5); // with PCID even the first switch_mm keeps the entries
    expect(metric(nopcid, "getppid")).toBeGreaterThan(metric(pcid, "getppid"));
  });

  it("PCID keeps each address space's TLB entries across a context switch: no refills after switch_mm", () => {
    const pcid = runExample("lat_ctx", { params: { iterations: 200 }, ...l6("zen4") });
    const nopcid = runExample("lat_ctx", { params: { iterations: 200 }, ...l6("zen4", { pcid: "off" }) });
    expect(pcid.error).toBeUndefined();
    expect(pcid.counters["tlb.pcid_switches"]).toBeGreaterThan(400);
    expect(pcid.counters["tlb.misses"] ?? 0).toBeLessThan(20); // the first touches only
    expect(nopcid.counters["tlb.pcid_switches"]).toBeUndefined();
    expect(nopcid.counters["tlb.misses"]!).toBeGreaterThan(800);
    expect(metric(nopcid, "2p/0K ctxsw")).toBeGreaterThan(metric(pcid, "2p/0K ctxsw"));
  });
});

describe("linux6: XSAVE signal frames and eager FPU", () => {
  it("the frame's XSAVE follows the CPU's XSAVE size: 832 B on Skylake (AVX2), 2696 B on Skylake-X (AVX-512 + PKRU)", () => {
    const perSignal = (cpu: string) => {
      const r = runExample("lat_sig_catch", { params: { iterations: 100 }, ...l6(cpu) });
      expect(r.error).toBeUndefined();
      return pathCount(r, "xsave_to_user_sigframe") / r.counters["linux6.sigframe_xsaves"]!;
    };
    expect(perSignal("skylake")).toBe(13); // ceil(832 / 64)
    expect(perSignal("skylake-x")).toBe(43); // ceil(2696 / 64)
    expect(perSignal("zen4")).toBe(38); // ceil(2432 / 64)
  });

  it("rt_sigreturn XRSTORs the frame: the handler starts with a clean FPU and the interrupted state comes back", () => {
    const src = `import { workload, SIGUSR1 } from "siglab";
export default workload({ name: "fpu across a handler", params: {}, *main(t) {
  yield* t.fpu.set("st0", 2.5);
  let inHandler = -1;
  yield* t.sigaction(SIGUSR1, function* (h) { inHandler = (yield* h.fpu.get("st0"))[0]; yield* h.fpu.set("st0", 7); }, { flags: 0 });
  const me = yield* t.getpid();
  yield* t.kill(me, SIGUSR1);
  t.report("handler st0", inHandler, "value");
  t.report("after st0", (yield* t.fpu.get("st0"))[0], "value");
} });`;
    const r = runSource(src, l6("skylake-x"));
    expect(r.error).toBeUndefined();
    expect(metric(r, "handler st0")).toBe(0);
    expect(metric(r, "after st0")).toBe(2.5);
    expect(pathCount(r, "xrstor_from_user_sigframe")).toBe(43);
    expect(r.paths.find((p) => p.name === "xrstor_from_user_sigframe")!.ops.map((o) => o.op)).toEqual(["xrstor_chunk"]);
    expect(pathCount(r, "fpu__clear_user_states")).toBe(1);
    expect(r.counters["fpu.nm_traps"] ?? 0).toBeLessThanOrEqual(1); // at most the core's initial CR0.TS
    expect(r.findings).toEqual([]);
  });

  it("a context switch saves with XSAVES at switch-out and restores on the way back to user mode, not with #NM", () => {
    const r = runExample("lat_ctx", { params: {}, ...l6("zen4") });
    expect(r.error).toBeUndefined();
    const switches = r.counters["sched.switches"]!;
    expect(r.counters["linux6.fpu_switch_saves"]).toBeGreaterThan(switches * 0.9);
    expect(r.counters["linux6.fpu_restores"]).toBeGreaterThan(switches * 0.9);
    expect(pathCount(r, "device_not_available")).toBeLessThanOrEqual(2);
    expect(pathCount(r, "unlazy_fpu.switch")).toBe(0);
  });

  it("two FP-using processes keep their registers across switches", () => {
    const src = `import { workload } from "siglab";
export default workload({ name: "fpu ping-pong", params: {}, *main(t) {
  const [r1, w1] = yield* t.pipe(); const [r2, w2] = yield* t.pipe();
  const child = yield* t.fork(function* (c) { yield* c.fpu.set("st0", 9); for (let i = 0; i < 50; i++) { yield* c.read(r1, 1); yield* c.fpu.ops(1); yield* c.write(w2, 1); } if ((yield* c.fpu.get("st0"))[0] !== 9) throw new Error("child lost st0"); });
  yield* t.fpu.set("st0", 3);
  for (let i = 0; i < 50; i++) { yield* t.write(w1, 1); yield* t.read(r2, 1); yield* t.fpu.ops(1); }
  yield* t.wait();
  t.report("parent st0", (yield* t.fpu.get("st0"))[0], "value");
  void child;
} });`;
    const r = runSource(src, l6("skylake"));
    expect(r.error).toBeUndefined();
    expect(metric(r, "parent st0")).toBe(3);
    expect(r.findings).toEqual([]);
  });
});

describe("linux6: the sigaltstack hazard", () => {
  it("an AVX-512 frame overflows a MINSIGSTKSZ altstack: a finding on skylake-x, zen4 and zen5", () => {
    for (const cpu of ["skylake-x", "zen4", "zen5"]) {
      const r = runSource(example("linux6_altstack"), l6(cpu), "examples/linux6_altstack.ts");
      expect(r.error, cpu).toBeUndefined();
      const f = r.findings.filter((x) => x.kind === "sigaltstack-overflow");
      expect(f.length, cpu).toBe(1);
      expect(f[0]!.severity).toBe("error");
      expect(f[0]!.evidence["altstackBytes"]).toBe(2048);
      expect(f[0]!.evidence["frameBytes"] as number).toBeGreaterThan(2048);
    }
  });

  it("no finding where the frame fits: Skylake's AVX2 frame in 2048 bytes, any CPU's in SIGSTKSZ, or without the plugin", () => {
    const sk = runSource(example("linux6_altstack"), l6("skylake"), "examples/linux6_altstack.ts");
    expect(sk.error).toBeUndefined();
    expect(sk.findings).toEqual([]);
    expect(sk.counters["linux6.altstack_deliveries"]).toBe(4);
    const big = runSource(example("linux6_altstack"), { ...l6("skylake-x"), params: { size: 8192 } }, "examples/linux6_altstack.ts");
    expect(big.findings).toEqual([]);
    const base = runSource(example("linux6_altstack"), { cpu: "skylake-x", mhz: 3300 }, "examples/linux6_altstack.ts");
    expect(base.findings.filter((x) => x.kind === "sigaltstack-overflow")).toEqual([]);
  });

  it("the frame arithmetic is get_sigframe's: 1352 B with 832 B of xstate, 3208 B with 2696 B", () => {
    expect(0x10000 - sigframeBottom(0x10000, 832)).toBe(1352);
    expect(0x10000 - sigframeBottom(0x10000, 2696)).toBe(3208);
    expect(0x10000 - sigframeBottom(0x10000, 2432)).toBe(2952);
  });
});

describe("linux6: examples", () => {
  it("ships its examples, generated from examples/*.ts (run node packages/plugins/linux6/scripts/gen-examples.mjs after an edit)", async () => {
    // @ts-expect-error -- a plain .mjs script without declarations
    const { render } = (await import("../scripts/gen-examples.mjs")) as { render: () => string };
    expect(linux6.examples!.map((e) => e.id).sort()).toEqual(["linux6_altstack", "linux6_gettimeofday", "linux6_null_syscall"]);
    const gen = readFileSync(join(import.meta.dirname, "../src/examples.generated.ts"), "utf8");
    expect(gen).toBe(render());
  });

  it("linux6_null_syscall shows the cost of PTI on Skylake", () => {
    const on = runSource(example("linux6_null_syscall"), { ...l6("skylake"), params: { iterations: 300 } });
    const off = runSource(example("linux6_null_syscall"), { ...l6("skylake", { pti: "off" }), params: { iterations: 300 } });
    expect(metric(on, "getppid") - metric(off, "getppid")).toBeGreaterThan(250);
  });
});
