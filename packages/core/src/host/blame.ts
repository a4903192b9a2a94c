/**
 * Who threw: the innermost stack frame that belongs to foreign code — a third-party plugin's file
 * or the workload's — so an error names the plugin and the function (the hook) it came from, or
 * the workload line, instead of the simulator's internals. Foreign files carry their own
 * sourceURL (host/compartment.ts), so their frames are recognisable in the stack text.
 */
export interface Culprit {
  kind: "plugin" | "workload";
  /** the plugin id (kind "plugin") */
  id?: string;
  /** the function the frame is in, e.g. "Object.handler" or "enter" */
  fn?: string;
  file: string;
  line: number;
  column: number;
}

const FRAME = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/;

type GetStackString = (e: object) => string;

/**
 * The stack of a thrown value, read without calling into it (undefined for non-errors). Under
 * lockdown with safe error taming only the start compartment's getStackString sees the frames.
 */
function stackOf(e: unknown): string | undefined {
  if (typeof e !== "object" || e === null) return undefined;
  try {
    const get = (globalThis as { getStackString?: GetStackString }).getStackString;
    if (get) {
      const s = get(e);
      if (s) return s;
    }
    const d = Object.getOwnPropertyDescriptor(e, "stack");
    return d && typeof d.value === "string" ? d.value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The innermost frame in `plugins` (origin folder -> plugin id) or in `workloadFile`; null when the
 * stack shows neither.
 */
export function culprit(e: unknown, plugins: ReadonlyMap<string, string>, workloadFile: string): Culprit | null {
  const stack = stackOf(e);
  if (!stack) return null;
  const workload = encodeURI(workloadFile);
  const origins = [...plugins].map(([origin, id]) => [encodeURI(origin.endsWith("/") ? origin : `${origin}/`), id] as const);
  for (const line of stack.split("\n").slice(0, 60)) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const url = m[2]!;
    const pos = { line: Number(m[3]), column: Number(m[4]) };
    const fn = m[1] ? { fn: m[1] } : {};
    const p = origins.find(([o]) => url.startsWith(o));
    if (p) return { kind: "plugin", id: p[1], ...fn, file: decodeURI(url), ...pos };
    if (url === workload) return { kind: "workload", ...fn, file: workloadFile, ...pos };
  }
  return null;
}
