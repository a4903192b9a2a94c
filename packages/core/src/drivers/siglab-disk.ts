/**
 * /dev/siglab-disk. Its model is the run's BlockDevice (an extension point); the baseline one is a
 * device with latency: a request completes `latencyUs` after it is started, no sooner than
 * `intervalUs` after the previous completion (the device's bandwidth); each completion raises its
 * own device interrupt, whose handler runs end_request and then the submitter's completion
 * (diskWrite below: a record, wake-ups and kill_fasync for a plain fd; the aio plugin: aio_complete
 * into the ring). Every submitter goes through submitToDisk, so that every way of learning of a
 * completion sees the same device.
 */
import type { BlockDevice, LatencyDevice as DiskView } from "@siglab/plugin-api";
import type { KernelCore } from "../kernel/core.js";
import { pathRefs } from "../kernel/path-refs.js";
import { SimError } from "../kernel/sim-error.js";
import { EAGAIN, EINVAL, ERESTARTSYS } from "../kernel/signal.js";
import type { Task } from "../kernel/task.js";
import { schedule } from "../kernel/sched.js";
import { sleepOn, unqueue, wakeAll } from "../kernel/wait.js";
import { kill_fasync, POLL_IN } from "../fs/fcntl.js";
import { O_NONBLOCK, type File } from "../fs/file.js";
import { copyLines } from "../fs/pipe.js";

/** the paths this file runs, resolved once per run (path-refs.ts) */
const P = pathRefs(["siglab_disk.record", "siglab_disk_read", "siglab_disk_write"]);

export const DISK_PATH = "/dev/siglab-disk";
/** What read() on the disk returns per finished request (the size of an io_event). */
export const DISK_RECORD_BYTES = 32;

export interface DeviceConfig {
  /** microseconds from the start of a request to its completion interrupt */
  latencyUs: number;
  /** minimum microseconds between two completions (0: unlimited bandwidth) */
  intervalUs: number;
  /**
   * a completion comes up to this many microseconds later, uniformly, drawn from the run's seed
   * (a real device's service time varies: the seed is one of the run's sources of variation)
   */
  jitterUs: number;
}

/** The default jitter is 10% of the default latency: an illustrative spread, not a measured one. */
export const DEFAULT_DEVICE: Readonly<DeviceConfig> = Object.freeze({ latencyUs: 100, intervalUs: 0, jitterUs: 10 });

/** The baseline BlockDevice: latency plus a minimum interval between completions. One per run. */
export class LatencyDevice implements BlockDevice {
  readonly id = "core:latency-disk";
  inFlight = 0;
  private lastAt = 0;
  constructor(public config: DeviceConfig = { ...DEFAULT_DEVICE }) {}

  /** configureDisk's settings (checked by configureDevice) replace the defaults, key by key. */
  configure(_k: KernelCore, cfg: Readonly<Partial<DeviceConfig>>): void {
    this.config = { ...this.config, ...cfg };
  }

  /** Start a request of `bytes` (the driver's make_request); `complete(res)` runs in its interrupt. */
  submit(k: KernelCore, bytes: number, complete: (res: number) => void): void {
    k.run("siglab_disk.make_request");
    const mhz = k.profile.mhz;
    const jitter = this.config.jitterUs > 0 ? k.random() * this.config.jitterUs : 0;
    const at = Math.max(k.cycles + 1, Math.round(k.cycles + (this.config.latencyUs + jitter) * mhz), Math.round(this.lastAt + this.config.intervalUs * mhz));
    this.lastAt = at;
    this.inFlight++;
    k.count("device.requests");
    k.scheduleEvent(at, "device", () => {
      this.inFlight--;
      k.run("siglab_disk.end_request");
      k.count("device.completions");
      complete(bytes);
    });
  }
}

/**
 * Start a request of `bytes` on the run's disk; `complete(res)` runs in its completion interrupt.
 * The device model may call it once per request: a second call ends the run with an error.
 */
export function submitToDisk(k: KernelCore, bytes: number, complete: (res: number) => void): void {
  k.diskInUse = true;
  const dev = k.deps.blockDevice;
  let done = false;
  const once = Object.freeze((res: number): void => {
    if (done) throw new SimError("plugin", `the BlockDevice '${String(dev.id)}' completed a request twice`);
    done = true;
    complete(res);
  });
  dev.submit(k, bytes, once);
}

/** The run's disk as plugins' drivers see it (k.files.disk()): requests only. */
export function deviceOf(k: KernelCore): DiskView {
  k.diskInUse = true;
  return (k.diskView ??= Object.freeze({ submit: (_k: unknown, bytes: number, done: (res: number) => void) => submitToDisk(k, bytes, done) }));
}

/** Set the disk's timing for this run (a plugin's KernelSetupContribution); refuses bad values. */
export function configureDevice(k: KernelCore, cfg: Partial<DeviceConfig>, who: string): void {
  const checked: Partial<DeviceConfig> = {};
  for (const [key, v] of Object.entries(cfg)) {
    if (!(key === "latencyUs" || key === "intervalUs" || key === "jitterUs")) throw new Error(`${who}: unknown device setting '${key}' (latencyUs, intervalUs, jitterUs)`);
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new Error(`${who}: device ${key} must be a number >= 0, got ${String(v)}`);
    checked[key as keyof DeviceConfig] = v;
  }
  if (k.diskInUse) throw new Error(`${who}: the device is already in use; configure it at kernel setup`);
  k.deps.blockDevice.configure(k, Object.freeze(checked), who);
}

// ---- the character device (its file operations, reached from fs/read-write.ts) ----------------

/**
 * write() on /dev/siglab-disk starts one request of `bytes` and returns at once (the data goes by
 * DMA). Its completion interrupt makes a 32-byte record readable, wakes readers and sends
 * SIGIO (or the F_SETSIG signal with si_fd) to the owner, as a 2.4 driver does with kill_fasync.
 */
export function diskWrite(k: KernelCore, f: File, fd: number, bytes: number): number {
  k.runRef(P["siglab_disk_write"]);
  if (!(bytes > 0)) return -EINVAL;
  submitToDisk(k, bytes, () => {
    k.runRef(P["siglab_disk.record"]);
    f.pipe.len += DISK_RECORD_BYTES;
    if (f.pipe.readWait.length) wakeAll(k, f.pipe.readWait);
    kill_fasync(k, f, fd, POLL_IN);
  });
  return bytes;
}

/** read() on the disk: whole completion records; sleeps until one is there (unless O_NONBLOCK). */
export function* diskRead(k: KernelCore, t: Task, f: File, bytes: number): Generator<unknown, number, unknown> {
  k.runRef(P["siglab_disk_read"]);
  const p = f.pipe;
  if (bytes < DISK_RECORD_BYTES) return -EINVAL;
  while (p.len === 0) {
    if (f.flags & O_NONBLOCK) return -EAGAIN;
    sleepOn(k, t, p.readWait);
    yield* schedule(k);
    unqueue(k, t, p.readWait);
    if (t.sigpending) return -ERESTARTSYS;
  }
  const n = Math.min(p.len, bytes - (bytes % DISK_RECORD_BYTES));
  copyLines(k, n);
  p.len -= n;
  return n;
}
