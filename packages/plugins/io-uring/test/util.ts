/** Shared helpers for the io-uring plugin's tests: runs with linux6 + io-uring on an x86-64 CPU. */
import { runSource, metric, pathCount, type RunOpts } from "../../../core/test/harness.js";
import type { RunResult } from "@siglab/core";
import linux6 from "../../linux6/src/index.js";
import aio from "../../aio/src/index.js";
import uring, { URING_EXAMPLES } from "../src/index.js";

export { metric, pathCount, uring, linux6, aio };

export const CPU = { cpu: "zen4", mhz: 4500 } as const;

type Opts = Record<string, string | number | boolean>;

/** Run with linux6 and io-uring in the stack (io-uring options as given). */
export function withUring(source: string, o: RunOpts & { uringOptions?: Opts } = {}): RunResult {
  return runSource(source, { ...CPU, ...o, plugins: [linux6, uring, aio], variants: [{ id: "linux6" }, { id: "io-uring", options: o.uringOptions ?? {} }] });
}

/** Run an io_uring_* example under linux6 + io-uring (or the stack given). */
export function runUringExample(id: string, o: RunOpts = {}): RunResult {
  const e = URING_EXAMPLES.find((x) => x.id === id);
  if (!e) throw new Error(`no io-uring example ${id}`);
  return runSource(e.source, { ...CPU, ...o, plugins: [linux6, uring, aio], variants: o.variants ?? [{ id: "linux6" }, { id: "io-uring" }] }, e.file);
}

/** Run one of the aio plugin's examples under linux6 (+ aio), on the same CPU. */
export function runAioExample(id: string, o: RunOpts = {}): RunResult {
  const e = aio.examples!.find((x) => x.id === id);
  if (!e) throw new Error(`no aio example ${id}`);
  return runSource(e.source, { ...CPU, ...o, plugins: [linux6, uring, aio], variants: [{ id: "linux6" }, { id: "aio" }] }, e.file);
}

/** A workload body with the io_uring numbers and ring offsets in scope. */
export const W = (body: string, params = "{}") => `
import { workload, SIGIO, F_SETOWN, F_SETFL, O_ASYNC } from "siglab";
const io_uring_setup = 425, io_uring_enter = 426;
const GETEVENTS = 1, SQ_WAKEUP = 2, SQPOLL = 2, SQ_AFF = 4, NEED_WAKEUP = 1;
const OP_NOP = 0, OP_READ = 22, OP_WRITE = 23;
const SQ_HEAD = 0, SQ_TAIL = 4, CQ_HEAD = 8, CQ_TAIL = 12, SQ_MASK = 16, CQ_MASK = 20, SQ_ENTRIES = 24, CQ_ENTRIES = 28, SQ_FLAGS = 36, SQES = 48, CQES = 64;
function* ringInit(t, ring) {
  const sqEntries = yield* t.load(ring + SQ_ENTRIES), cqEntries = yield* t.load(ring + CQ_ENTRIES);
  const sqArray = ring + Math.ceil((CQES + 16 * cqEntries) / 64) * 64;
  for (let i = 0; i < sqEntries; i++) yield* t.store(sqArray + 4 * i, i);
  return { ring, sqes: yield* t.load(ring + SQES), sqMask: yield* t.load(ring + SQ_MASK), cqMask: yield* t.load(ring + CQ_MASK), tail: 0, head: 0 };
}
function* queue(t, q, opcode, fd, len, data) {
  const sqe = q.sqes + 64 * (q.tail & q.sqMask);
  yield* t.store(sqe, opcode); yield* t.store(sqe + 4, fd); yield* t.store(sqe + 24, len); yield* t.store(sqe + 32, data);
  q.tail++;
}
function* publish(t, q) { yield* t.store(q.ring + SQ_TAIL, q.tail); }
function* reap(t, q) {
  const tail = yield* t.load(q.ring + CQ_TAIL);
  const out = [];
  for (; q.head < tail; q.head++) {
    const c = q.ring + CQES + 16 * (q.head & q.cqMask);
    out.push({ data: yield* t.load(c), res: yield* t.load(c + 8) });
  }
  yield* t.store(q.ring + CQ_HEAD, q.head);
  return out;
}
export default workload({ name: "t", params: ${params}, *main(t, p) { ${body} } });`;
