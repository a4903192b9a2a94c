/**
 * One clear line per run error: a category that says what went wrong ("Syntax error", "Type
 * error", "Workload error", "Budget exceeded", ...), then where ("file:line:column", the task and
 * cycle) once, then the message without the prefix the execution host may already have put there.
 */
import type { RunError } from "../../common/contracts.js";

const CATEGORY: Record<string, string> = {
  compile: "Syntax error",
  syntax: "Syntax error",
  type: "Type error",
  workload: "Workload error",
  budget: "Budget exceeded",
  plugin: "Plugin error",
  config: "Configuration error",
  refused: "Refused by the sandbox",
  cancelled: "Cancelled",
  internal: "Internal error",
};

export interface DescribedError {
  category: string;
  /** "untitled-x.ts:6:21", "task 1000 at cycle 1,234" or "" */
  where: string;
  message: string;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Strips "file:line:col: " / "file: " / "file:line: " prefixes naming the same file. */
function stripFilePrefix(message: string, file: string | undefined): { message: string; line?: number; column?: number } {
  if (!file) return { message };
  const base = file.split("/").pop()!;
  for (const name of new Set([file, base])) {
    const m = new RegExp(`^(?:[\\w./-]*/)?${escapeRe(name)}(?::(\\d+))?(?::(\\d+))?:\\s*`).exec(message);
    if (m) {
      const out: { message: string; line?: number; column?: number } = { message: message.slice(m[0].length) };
      if (m[1]) out.line = Number(m[1]);
      if (m[2]) out.column = Number(m[2]);
      return out;
    }
  }
  return { message };
}

export function describeRunError(e: RunError, wording: (m: string) => string = (m) => m): DescribedError {
  const stripped = stripFilePrefix(wording(e.message), e.file);
  let kind = e.kind;
  // A config error that carries a compiler position is a compile error (older hosts said "config").
  if (kind === "config" && (e.line ?? stripped.line)) kind = "compile";
  // "compile" errors come from transpiling (syntax only); type errors are refused before a run
  const category = CATEGORY[kind] ?? `${kind[0]?.toUpperCase() ?? ""}${kind.slice(1)} error`;
  const line = e.line ?? stripped.line;
  const column = e.column ?? stripped.column;
  const file = e.file ? e.file.split("/").pop()! : "";
  const pos = file && line ? `${file}:${line}${column ? `:${column}` : ""}` : "";
  let message = stripped.message;
  // workload errors read "task N threw at cycle C: message": keep it, it is the where
  const at = /^task (\S+) threw at cycle (\d+): /.exec(message);
  let where = pos;
  if (at) {
    where = [pos, `task ${at[1]}, cycle ${Number(at[2]).toLocaleString("en-US")}`].filter(Boolean).join(", ");
    message = message.slice(at[0].length);
  }
  return { category, where, message };
}

/** "Syntax error at untitled-x.ts:6:21: ')' expected." */
export function runErrorLine(e: RunError, wording?: (m: string) => string): string {
  const d = describeRunError(e, wording);
  return `${d.category}${d.where ? ` at ${d.where}` : ""}: ${d.message}`;
}
