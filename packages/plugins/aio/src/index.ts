/**
 * aio: Ben LaHaise's asynchronous I/O for Linux 2.5 (merged in 2.5.x, the code as in 2.6.11).
 * io_setup maps a completion ring into the process; io_submit starts many requests in one call;
 * the device interrupt's aio_complete writes 32-byte io_events into the ring; io_getevents copies
 * up to nr of them per call. The batching that queued signals lack, without signal notification.
 */
import { ContainerModule } from "inversify";
import { device, TOKENS, validateManifest, type InvariantChecker, type KernelSetupContribution, type LoadedPlugin, type ParamValue } from "@siglab/core";
import manifestJson from "../plugin.json" with { type: "json" };
import { AioLimitChecker } from "./checker.js";
import { AIO_EXAMPLES } from "./examples.js";
import { AioState } from "./kioctx.js";
import { AIO_PATHS } from "./paths.js";
import { AIO_SYSCALLS } from "./syscalls.js";

export { AIO_PATHS, AIO_SYSCALLS, AIO_EXAMPLES };
export * from "./syscalls.js";
export { IO_EVENT_BYTES, AIO_RING_HEADER_BYTES, AIO_RING_MAGIC, type IoEvent } from "./kioctx.js";

const manifest = validateManifest(manifestJson, "packages/plugins/aio/plugin.json");

function setup(options: Record<string, ParamValue>): KernelSetupContribution {
  return {
    setup(k) {
      k.ext["aio"] = new AioState(Number(options["aioMaxNr"]));
      device.configureDevice(k, { latencyUs: Number(options["deviceLatencyUs"]), intervalUs: Number(options["deviceIntervalUs"]) }, "plugin 'aio'");
    },
  };
}

export const plugin: LoadedPlugin = {
  manifest,
  builtin: true,
  examples: AIO_EXAMPLES,
  module: (options) =>
    new ContainerModule(({ bind }) => {
      for (const s of AIO_SYSCALLS) bind(TOKENS.SyscallContribution).toConstantValue(s);
      bind(TOKENS.PathContribution).toConstantValue({ paths: () => AIO_PATHS });
      bind(TOKENS.KernelSetupContribution).toConstantValue(setup(options));
      // checkers keep per-run state: a fresh one per resolution
      bind<InvariantChecker>(TOKENS.InvariantChecker).toDynamicValue(() => new AioLimitChecker());
    }),
};

export default plugin;
