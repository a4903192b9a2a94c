/**
 * Shape checks for data the app reads back from places it does not control: local storage (the
 * saved run configuration, layout and settings) and shared links. Each check throws a
 * ValidationError naming the field; nothing read is trusted before it passed.
 */
import type { CpuRef, ParamValue, VariantSpec } from "../../common/contracts.js";

export class ValidationError extends Error {}

export const LIMITS = {
  cpus: 32,
  stacks: 32,
  variantsPerStack: 16,
  options: 64,
  params: 256,
  sweepValues: 1000,
  idLength: 200,
  stringValue: 10_000,
  /** CPUs of one SMP machine (the simulator's --smp range) */
  smp: 8,
  /** repetitions (seeds) of each run: the Repetitions control's range (results/repeat.ts MAX_REPEAT) */
  repeat: 101,
} as const;

const ID = /^[A-Za-z0-9][A-Za-z0-9_.@+-]*$/;

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && (Object.getPrototypeOf(v) === Object.prototype || Object.getPrototypeOf(v) === null);
}

function fail(where: string, what: string): never {
  throw new ValidationError(`${where}: ${what}`);
}

export function checkId(v: unknown, where: string): string {
  if (typeof v !== "string" || v.length === 0 || v.length > LIMITS.idLength || !ID.test(v)) fail(where, "expected an id (letters, digits, _ . @ + -)");
  return v;
}

export function checkScalar(v: unknown, where: string): ParamValue {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) fail(where, "expected a finite number");
    return v;
  }
  if (typeof v === "string") {
    if (v.length > LIMITS.stringValue) fail(where, "string too long");
    return v;
  }
  fail(where, "expected a number, a string or a boolean");
}

export function checkParams(v: unknown, where: string): Record<string, ParamValue> {
  if (!isRecord(v)) fail(where, "expected an object");
  const keys = Object.keys(v);
  if (keys.length > LIMITS.params) fail(where, `more than ${LIMITS.params} entries`);
  const out: Record<string, ParamValue> = {};
  for (const k of keys) {
    if (k.length > LIMITS.idLength || k === "__proto__" || k === "constructor" || k === "prototype") fail(where, `bad name "${k.slice(0, 40)}"`);
    out[k] = checkScalar(v[k], `${where}.${k}`);
  }
  return out;
}

export function checkCpus(v: unknown, where: string): CpuRef[] {
  if (!Array.isArray(v)) fail(where, "expected a list");
  if (v.length > LIMITS.cpus) fail(where, `more than ${LIMITS.cpus} CPUs`);
  return v.map((c, i) => {
    if (!isRecord(c)) fail(`${where}[${i}]`, "expected { id, mhz }");
    const mhz = c["mhz"];
    if (typeof mhz !== "number" || !Number.isFinite(mhz) || mhz <= 0 || mhz > 100_000) fail(`${where}[${i}].mhz`, "expected a clock in MHz");
    const cpu: CpuRef = { id: checkId(c["id"], `${where}[${i}].id`), mhz };
    if (c["smp"] !== undefined) {
      const smp = checkSmp(c["smp"], `${where}[${i}].smp`);
      if (smp > 1) cpu.smp = smp;
    }
    return cpu;
  });
}

/** CPUs of a machine: an integer from 1 to 8 (1 = the UP kernel). */
export function checkSmp(v: unknown, where: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > LIMITS.smp) fail(where, `expected CPUs of the machine, an integer from 1 to ${LIMITS.smp}`);
  return v;
}

/** Repetitions of each run (the Repetitions control): an integer from 1 to LIMITS.repeat. */
export function checkRepeat(v: unknown, where: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > LIMITS.repeat) fail(where, `expected repetitions, an integer from 1 to ${LIMITS.repeat}`);
  return v;
}

export function checkStacks(v: unknown, where: string): VariantSpec[][] {
  if (!Array.isArray(v)) fail(where, "expected a list of variant stacks");
  if (v.length === 0 || v.length > LIMITS.stacks) fail(where, `expected 1 to ${LIMITS.stacks} stacks`);
  return v.map((st, si) => {
    if (!Array.isArray(st)) fail(`${where}[${si}]`, "expected a list of variants");
    if (st.length > LIMITS.variantsPerStack) fail(`${where}[${si}]`, `more than ${LIMITS.variantsPerStack} variants`);
    return st.map((x, vi) => {
      const at = `${where}[${si}][${vi}]`;
      if (!isRecord(x)) fail(at, "expected { id, options? }");
      const spec: VariantSpec = { id: checkId(x["id"], `${at}.id`) };
      if (x["options"] !== undefined) {
        const o = checkParams(x["options"], `${at}.options`);
        if (Object.keys(o).length > LIMITS.options) fail(`${at}.options`, "too many options");
        if (Object.keys(o).length) spec.options = o;
      }
      return spec;
    });
  });
}

/** A seed is an unsigned 32-bit integer (as the core requires). */
export function checkSeed(v: unknown, where: string): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 0xffffffff) fail(where, "expected an unsigned 32-bit integer");
  return v;
}

export function checkSweep(v: unknown, where: string): { param: string; values: ParamValue[] } {
  if (!isRecord(v)) fail(where, "expected { param, values }");
  const param = v["param"];
  if (typeof param !== "string" || param.length === 0 || param.length > LIMITS.idLength) fail(`${where}.param`, "expected a parameter name");
  const values = v["values"];
  if (!Array.isArray(values) || values.length === 0 || values.length > LIMITS.sweepValues) fail(`${where}.values`, `expected 1 to ${LIMITS.sweepValues} values`);
  return { param, values: values.map((x, i) => checkScalar(x, `${where}.values[${i}]`)) };
}
