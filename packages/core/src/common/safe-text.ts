/**
 * Text that somebody else wrote (a workload's error message or metric name, a bundle's labels, a
 * plugin's manifest) made safe to print: the one escaping function of every output sink. A
 * terminal acts on control characters — ESC sequences move the cursor, erase lines, set the window
 * title, write the clipboard (OSC 52); a carriage return or a newline lets one field overwrite or
 * fake a line of its own; bidirectional overrides reorder what is shown — so each such character
 * becomes a visible escape that JSON reads back as the same character:
 *   \n \r \t, and \uXXXX for the other C0 controls, DEL, C1 controls (U+0080-U+009F), the
 *   bidirectional marks, embeddings, overrides and isolates, and the line/paragraph separators.
 * Printable text, "µ", "×" and the like are unchanged.
 */

const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/**
 * the same, but newlines, tabs and CRLF line ends (CSV's) stay: for whole blocks of output whose
 * fields were escaped one by one (a carriage return alone, which can overwrite a line, does not)
 */
const UNSAFE_IN_BLOCK = /\r(?!\n)|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const SHORT: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };
const escapeOne = (c: string): string => SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * `text` with every control, bidirectional or separator character escaped. A one-line field (a
 * name, a message, a label: the default) escapes newlines and tabs too; `{ block: true }` keeps
 * them (and CRLF line ends), for output assembled from fields already escaped (a last line of
 * defence at the sink).
 */
export function escapeControls(text: string, opts: { block?: boolean } = {}): string {
  return text.replace(opts.block ? UNSAFE_IN_BLOCK : UNSAFE, escapeOne);
}

/** Whether `text` holds a character escapeControls would escape (one-line rules). */
export function hasControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

/**
 * A copy of `value` (results, a bundle's experiment, a manifest: plain data) with every string and
 * every object key escaped as a one-line field, for text output. JSON output needs no such copy:
 * JSON already escapes C0 controls, and the sink escapes the rest.
 */
export function escapeDeep<T>(value: T): T {
  const copy = (v: unknown, depth: number): unknown => {
    if (typeof v === "string") return escapeControls(v);
    if (v === null || typeof v !== "object" || depth > 64 || ArrayBuffer.isView(v)) return v;
    if (Array.isArray(v)) return v.map((x) => copy(x, depth + 1));
    const out: Record<string, unknown> = {};
    // defineProperty: a key "__proto__" is data here, not the object's prototype
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) Object.defineProperty(out, escapeControls(k), { value: copy(x, depth + 1), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return copy(value, 0) as T;
}
