/** /dev/siglab-disk: the simulated device with latency (kernel/device.ts and its char interface in pipe.ts). */
import { ContainerModule } from "inversify";
import { describe, expect, it } from "vitest";
import { device, TOKENS, type Kernel, type LoadedPlugin } from "../src/index.js";
import { metric, pathCount, runSource } from "./harness.js";

const W = (body: string) => `
import { workload, SIGIO, SIGRTMIN, SA_SIGINFO, F_SETOWN, F_SETFL, F_SETSIG, O_ASYNC, O_NONBLOCK } from "siglab";
export default workload({ name: "t", params: {}, *main(t, p) { ${body} } });`;

/** A test plugin that sets the disk's timing at kernel setup, as the aio plugin does. */
function timing(cfg: Partial<device.DeviceConfig>): LoadedPlugin {
  return {
    manifest: { id: "disk-timing", version: "1.0.0", apiVersion: "2.0", displayName: "t", description: "t", options: {}, contributes: ["KernelSetupContribution"] },
    builtin: false,
    module: () =>
      new ContainerModule(({ bind }) => {
        bind(TOKENS.KernelSetupContribution).toConstantValue({ setup: (k: Kernel) => device.configureDevice(k, cfg, "disk-timing") });
      }),
  };
}

describe("/dev/siglab-disk", () => {
  it("write starts a request and returns at once; read sleeps until its completion record (after the latency)", () => {
    const r = runSource(W(`
      const fd = yield* t.open("/dev/siglab-disk");
      const t0 = t.rdtsc();
      t.report("write", yield* t.write(fd, 4096), "B");
      t.report("write us", (t.rdtsc() - t0) / t.mhz, "us");
      t.report("read", yield* t.read(fd, 1024), "B");
      t.report("read us", (t.rdtsc() - t0) / t.mhz, "us");
      t.report("short", yield* t.read(fd, 16), "ret");`));
    expect(r.error).toBeUndefined();
    expect(metric(r, "write")).toBe(4096);
    expect(metric(r, "write us")).toBeLessThan(5);
    expect(metric(r, "read")).toBe(32);
    expect(metric(r, "read us")).toBeGreaterThan(100);
    expect(metric(r, "read us")).toBeLessThan(110);
    expect(metric(r, "short")).toBe(-22);
    expect(r.counters["irq.device"]).toBe(1);
    expect(pathCount(r, "siglab_disk.end_request")).toBe(1);
  });

  it("O_NONBLOCK: -EAGAIN until a record is there; read returns whole records", () => {
    const r = runSource(W(`
      const fd = yield* t.open("/dev/siglab-disk");
      yield* t.fcntl(fd, F_SETFL, O_NONBLOCK);
      for (let i = 0; i < 3; i++) yield* t.write(fd, 512);
      t.report("early", yield* t.read(fd, 1024), "ret");
      yield* t.compute(200 * t.mhz);
      t.report("late", yield* t.read(fd, 80), "B");
      t.report("rest", yield* t.read(fd, 1024), "B");`));
    expect(metric(r, "early")).toBe(-11);
    expect(metric(r, "late")).toBe(64);
    expect(metric(r, "rest")).toBe(32);
  });

  it("O_ASYNC + F_SETSIG: one queued RT signal per completion with si_fd; plain SIGIO coalesces", () => {
    const body = (setsig: boolean) => W(`
      const fd = yield* t.open("/dev/siglab-disk");
      let n = 0, fdSeen = -1;
      const sig = ${setsig ? "SIGRTMIN + 3" : "SIGIO"};
      yield* t.sigprocmask(0, [sig]);
      yield* t.fcntl(fd, F_SETOWN, t.pid);
      ${setsig ? "yield* t.fcntl(fd, F_SETSIG, sig);" : ""}
      yield* t.fcntl(fd, F_SETFL, O_ASYNC);
      for (let i = 0; i < 4; i++) yield* t.write(fd, 512);
      yield* t.compute(200 * t.mhz);
      for (;;) {
        const info = yield* t.sigtimedwait([sig], 0);
        if (typeof info === "number") break;
        n++; fdSeen = info.fd ?? -1;
      }
      t.report("n", n, "signals");
      t.report("fd ok", fdSeen === fd ? 1 : 0, "bool");`);
    const rt = runSource(body(true));
    expect(metric(rt, "n")).toBe(4);
    expect(metric(rt, "fd ok")).toBe(1);
    expect(rt.counters["signals.sigio"]).toBe(4);
    expect(rt.findings).toEqual([]);
    const plain = runSource(body(false));
    expect(metric(plain, "n")).toBe(1);
    expect(plain.counters["signals.coalesced"]).toBe(3);
  });

  it("select wakes on a completion", () => {
    const r = runSource(W(`
      const fd = yield* t.open("/dev/siglab-disk");
      yield* t.write(fd, 512);
      const s = yield* t.select([fd], [fd]);
      t.report("writable", typeof s === "number" ? -1 : s.writable.length, "fds");
      const s2 = yield* t.select([fd], []);
      t.report("readable", typeof s2 === "number" ? -1 : s2.readable.length, "fds");`));
    expect(metric(r, "writable")).toBe(1);
    expect(metric(r, "readable")).toBe(1);
  });

  it("a kernel setup hook sets the latency and the interval between completions; bad values are refused", () => {
    const src = W(`
      const fd = yield* t.open("/dev/siglab-disk");
      const t0 = t.rdtsc();
      yield* t.write(fd, 512); yield* t.write(fd, 512);
      yield* t.read(fd, 32);
      t.report("first", (t.rdtsc() - t0) / t.mhz, "us");
      yield* t.read(fd, 32);
      t.report("second", (t.rdtsc() - t0) / t.mhz, "us");`);
    const plug = timing({ latencyUs: 40, intervalUs: 30 });
    const r = runSource(src, { plugins: [plug], variants: [{ id: "disk-timing" }] });
    expect(r.error).toBeUndefined();
    expect(metric(r, "first")).toBeGreaterThan(40);
    expect(metric(r, "first")).toBeLessThan(50);
    expect(metric(r, "second")).toBeGreaterThan(70);
    expect(metric(r, "second")).toBeLessThan(80);
    const bad = runSource(src, { plugins: [timing({ latencyUs: -1 })], variants: [{ id: "disk-timing" }] });
    expect(bad.error?.message).toMatch(/disk-timing: device latencyUs must be a number >= 0/);
  });
});

describe("/dev/siglab-disk: completion jitter drawn from the seed", () => {
  const body = `
    const fd = yield* t.open("/dev/siglab-disk");
    const t0 = t.rdtsc();
    for (let i = 0; i < 20; i++) { yield* t.write(fd, 4096); yield* t.read(fd, 32); }
    t.report("per request", (t.rdtsc() - t0) / t.mhz / 20, "us");`;

  it("the same seed gives the same completions; other seeds move them within [latency, latency + jitterUs)", () => {
    const a = metric(runSource(W(body), { seed: 1 }), "per request");
    const b = metric(runSource(W(body), { seed: 1 }), "per request");
    const c = metric(runSource(W(body), { seed: 7 }), "per request");
    expect(a).toBe(b);
    expect(c).not.toBe(a);
    for (const v of [a, c]) {
      expect(v).toBeGreaterThan(100);
      expect(v).toBeLessThan(100 + device.DEFAULT_DEVICE.jitterUs + 5);
    }
  });

  it("jitterUs: 0 gives a fixed latency whatever the seed", () => {
    const fixed = (seed: number) => metric(runSource(W(body), { seed, plugins: [timing({ jitterUs: 0 })], variants: [{ id: "disk-timing" }] }), "per request");
    expect(fixed(1)).toBe(fixed(7));
  });
});
