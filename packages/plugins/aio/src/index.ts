/**
 * aio: Ben LaHaise's asynchronous I/O for Linux 2.5 (merged in 2.5.x, the code as in 2.6.11).
 * io_setup maps a completion ring into the process; io_submit starts many requests in one call;
 * the device interrupt's aio_complete writes 32-byte io_events into the ring; io_getevents copies
 * up to nr of them per call. The batching that queued signals lack, without signal notification.
 */
import { ContainerModule, TOKENS, type CreateModule, type KernelSetupContribution, type PluginModule, type PluginOptions } from "@siglab/plugin-api";
import manifest from "../plugin.json" with { type: "json" };
import { AioLimitChecker } from "./checker.js";
import { AIO_EXAMPLES } from "./examples.js";
import { AIO_STATE, AioState } from "./kioctx.js";
import { AIO_PATHS } from "./paths.js";
import { AIO_SYSCALLS } from "./syscalls.js";

export { AIO_PATHS, AIO_SYSCALLS, AIO_EXAMPLES };
export * from "./syscalls.js";
export { IO_EVENT_BYTES, AIO_RING_HEADER_BYTES, AIO_RING_MAGIC, type IoEvent } from "./kioctx.js";

function setup(options: PluginOptions): KernelSetupContribution {
  return {
    setup(k) {
      k.setSlot(AIO_STATE, new AioState(Number(options["aioMaxNr"])));
      k.files.configureDisk({ latencyUs: Number(options["deviceLatencyUs"]), intervalUs: Number(options["deviceIntervalUs"]) }, "plugin 'aio'");
    },
  };
}

export const createModule: CreateModule = (options) =>
  new ContainerModule(({ bind }) => {
    for (const s of AIO_SYSCALLS) bind(TOKENS.SyscallContribution).toConstantValue(s);
    bind(TOKENS.PathContribution).toConstantValue({ paths: () => AIO_PATHS });
    bind(TOKENS.KernelSetupContribution).toConstantValue(setup(options));
    // checkers keep per-run state: a fresh one per resolution
    bind(TOKENS.InvariantChecker).toDynamicValue(() => new AioLimitChecker());
  });

const plugin: PluginModule<typeof manifest> = { manifest, createModule, examples: AIO_EXAMPLES };
export default plugin;
