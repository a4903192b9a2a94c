/**
 * The memory budget of a Node sandbox process, as its two sides measure it: the process's own
 * watch of its resident size (child.ts), and what the host reads when V8 aborts the process (its
 * last words on stderr). Messages always give the limit and a measured figure, never the limit
 * as if it had been measured.
 */

/**
 * The resident size a sandbox process may reach for a budget of `memoryMb`: the budget, V8's
 * overhead over live data (about a quarter at the limit), and the process itself (Node, SES and the
 * simulator: ~150 MiB) with room to spare.
 */
export function rssCapMb(memoryMb: number): number {
  return Math.round(memoryMb * 1.25 + 384);
}

/** V8's "Mark-Compact 259.1 (261.6) -> 259.1 (261.6) MB": the heap (MB = MiB) before and after a collection. */
const GC_LINE = /(?:Mark-Compact|Scavenge|Mark-sweep)[^\n]*?(\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) -> (\d+(?:\.\d+)?) \((\d+(?:\.\d+)?)\) MB/g;

/**
 * Why a sandbox process that died said it died, when it was memory: V8's fatal out-of-memory or
 * invalid-size abort (one allocation past the heap limit, or past V8's largest object). Returns
 * the user's one line, or null when the process died of something else.
 */
export function fatalMemoryReason(stderr: string, memoryMb: number, peakMb: number | undefined): string | null {
  const oom = /heap out of memory|Allocation failed|FatalProcessOutOfMemory/.test(stderr);
  const tooBig = /invalid size error|invalid array length|invalid table size/i.test(stderr);
  if (!oom && !tooBig) return null;
  let heap: number | undefined;
  for (const m of stderr.matchAll(GC_LINE)) heap = Math.max(Number(m[1]), Number(m[3]));
  const measured =
    heap !== undefined
      ? `V8 measured ${Math.round(heap)} MiB in the heap at its last collection`
      : peakMb !== undefined
        ? `the sandbox process's resident memory had reached at least ${peakMb} MiB`
        : "no measurement was taken before the process ended";
  if (tooBig && !oom) return `memory budget exceeded: an allocation larger than V8's largest object was refused by ending the sandbox (limit ${memoryMb} MiB, --max-memory); ${measured}`;
  return `memory budget exceeded: an allocation took the sandbox's heap past its limit of ${memoryMb} MiB (--max-memory); ${measured}`;
}
