/**
 * A simulated device with latency, /dev/siglab-disk. A request completes `latencyUs` after it is
 * started, no sooner than `intervalUs` after the previous completion (the device's bandwidth);
 * each completion raises its own device interrupt, whose handler runs end_request and then the
 * submitter's completion (pipe.ts: a record, wake-ups and kill_fasync for a plain fd; the aio
 * plugin: aio_complete into the ring). Shared by the baseline and plugins so that every way of
 * learning of a completion sees the same device.
 */
import type { Kernel } from "./kernel.js";

export const DISK_PATH = "/dev/siglab-disk";
/** What read() on the disk returns per finished request (the size of an io_event). */
export const DISK_RECORD_BYTES = 32;

export interface DeviceConfig {
  /** microseconds from the start of a request to its completion interrupt */
  latencyUs: number;
  /** minimum microseconds between two completions (0: unlimited bandwidth) */
  intervalUs: number;
}

export const DEFAULT_DEVICE: Readonly<DeviceConfig> = Object.freeze({ latencyUs: 100, intervalUs: 0 });

export class LatencyDevice {
  inFlight = 0;
  private lastAt = 0;
  constructor(readonly config: DeviceConfig) {}

  /** Start a request of `bytes` (the driver's make_request); `complete(res)` runs in its interrupt. */
  submit(k: Kernel, bytes: number, complete: (res: number) => void): void {
    k.run("siglab_disk.make_request");
    const mhz = k.profile.mhz;
    const at = Math.max(k.cycles + 1, Math.round(k.cycles + this.config.latencyUs * mhz), Math.round(this.lastAt + this.config.intervalUs * mhz));
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

/** The run's disk (created on first use with the configured or default timing). */
export function deviceOf(k: Kernel): LatencyDevice {
  let d = k.disk;
  if (!d) {
    d = new LatencyDevice({ ...DEFAULT_DEVICE, ...k.diskConfig });
    k.disk = d;
  }
  return d;
}

/** Set the disk's timing for this run (a plugin's KernelSetupContribution); refuses bad values. */
export function configureDevice(k: Kernel, cfg: Partial<DeviceConfig>, who: string): void {
  for (const [key, v] of Object.entries(cfg)) {
    if (!(key === "latencyUs" || key === "intervalUs")) throw new Error(`${who}: unknown device setting '${key}' (latencyUs, intervalUs)`);
    if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw new Error(`${who}: device ${key} must be a number >= 0, got ${String(v)}`);
  }
  if (k.disk) throw new Error(`${who}: the device is already in use; configure it at kernel setup`);
  k.diskConfig = { ...k.diskConfig, ...cfg };
}
