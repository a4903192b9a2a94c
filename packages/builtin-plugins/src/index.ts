/**
 * The built-in plugins (packages/plugins/*: each a plugin module programmed against
 * @siglab/plugin-api only, loaded through the same path as a third-party plugin's) and the named
 * variant stacks (presets): Linux 2.4.18 itself, and those the plugins' manifests declare.
 */
import type { Preset } from "@siglab/plugin-api";
import { fromPluginModule, type LoadedPlugin } from "@siglab/core";
import saNofp from "@siglab/plugin-sa-nofp";
import libcR from "@siglab/plugin-libc-r";
import ngpt from "@siglab/plugin-ngpt";
import userSigmask from "@siglab/plugin-user-sigmask";
import aio from "@siglab/plugin-aio";
import lazyFpuFrame from "@siglab/plugin-lazy-fpu-frame";
import noCliExit from "@siglab/plugin-no-cli-exit";
import sysenter from "@siglab/plugin-sysenter";
import linux6 from "@siglab/plugin-linux6";
import ioUring from "@siglab/plugin-io-uring";

const MODULES = { "sa-nofp": saNofp, ngpt, "libc-r": libcR, "user-sigmask": userSigmask, aio, "lazy-fpu-frame": lazyFpuFrame, "no-cli-exit": noCliExit, sysenter, linux6, "io-uring": ioUring };

export const BUILTIN_PLUGINS: LoadedPlugin[] = Object.entries(MODULES).map(([folder, mod]) => fromPluginModule(mod, { origin: `packages/plugins/${folder}`, builtin: true }));

export type { Preset };

export const PRESETS: Preset[] = [
  { id: "linux-2.4.18", name: "Linux 2.4.18 (i386)", description: "the baseline: int $0x80, cli in ret_from_sys_call, lazy FPU, eager FXSR signal frames", stack: [] },
  ...BUILTIN_PLUGINS.flatMap((p) => p.manifest.presets ?? []),
];
