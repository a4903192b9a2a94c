/**
 * The builders of linux6's path definitions and transforms, shared by paths.ts, sched-fair.ts and
 * vdso.ts: every path and transform they make carries the plugin's origin.
 */
import type { OpLine, PathDef, PathTransform } from "@siglab/plugin-api";

export const ORIGIN = "linux6";

/** A path of this plugin: its ops in order, charged in the given phase. */
export const p = (name: string, phase: string, ops: OpLine[]): PathDef => ({ name, phase, origin: ORIGIN, ops });

/** A transform that replaces the ops of a core path (its name and phase stay). */
export const replace = (target: string, ops: OpLine[]): PathTransform => ({ target, origin: ORIGIN, transform: (def) => ({ ...def, ops }) });

/** A transform that puts ops before a core path's, dropping the core's mov_sreg (i386 segment loads). */
export const prepend = (target: string, ops: OpLine[]): PathTransform => ({ target, origin: ORIGIN, transform: (def) => ({ ...def, ops: [...ops, ...def.ops.filter((l) => l.op !== "mov_sreg")] }) });
