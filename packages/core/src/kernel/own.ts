/**
 * (No Linux counterpart: the simulator's plugin boundary.) The plugin API describes the core's
 * objects by interfaces; every Task, SignalFrame or FpuRegs a plugin hands back (or an event
 * delivers) IS the core's own object. These helpers say so where API-typed values re-enter core code.
 */
import type { FpuRegs as ApiFpuRegs, SignalFrame as ApiFrame, Task as ApiTask } from "@siglab/plugin-api";
import type { FpuRegs } from "../machine/fpu.js";
import type { SignalFrameK } from "../arch/i386/sigframe.js";
import type { Task } from "./task.js";

export const ownTask = (t: ApiTask): Task => t as unknown as Task;
export const ownFrame = (f: ApiFrame): SignalFrameK => f as unknown as SignalFrameK;
export const ownRegs = (f: ApiFpuRegs): FpuRegs => f as unknown as FpuRegs;
