/**
 * One cache entry on disk: a short text header that names the entry's key and the SHA-256 and
 * length of its body, then the body. Reading checks all three, so a truncated, corrupted or
 * misplaced file is never taken for a result.
 *
 *   siglab-cache 1\n
 *   key <64 hex>\n
 *   sha256 <64 hex of the body>\n
 *   bytes <body length>\n
 *   \n
 *   <body>
 */
import { createHash } from "node:crypto";

const MAGIC = "siglab-cache 1\n";
const HEADER = /^siglab-cache 1\nkey ([0-9a-f]{64})\nsha256 ([0-9a-f]{64})\nbytes (\d{1,12})\n\n/;
/** a header is never longer than this */
const HEADER_MAX = 256;

export function sha256Hex(data: string | Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

export function encodeEntry(key: string, body: Uint8Array): Buffer {
  const head = `${MAGIC}key ${key}\nsha256 ${sha256Hex(body)}\nbytes ${body.length}\n\n`;
  return Buffer.concat([Buffer.from(head, "latin1"), body]);
}

/** The body of a stored entry, or why it is not one (a wrong key, a bad length or hash). */
export function decodeEntry(key: string, bytes: Uint8Array): { body: Buffer } | { problem: string } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const m = HEADER.exec(buf.subarray(0, HEADER_MAX).toString("latin1"));
  if (!m) return { problem: "no valid header" };
  if (m[1] !== key) return { problem: `it holds the entry ${m[1]!.slice(0, 12)}…` };
  const body = buf.subarray(m[0].length);
  if (body.length !== Number(m[3])) return { problem: `${body.length} bytes of body where the header says ${m[3]} (truncated or extended)` };
  if (sha256Hex(body) !== m[2]) return { problem: "the body's SHA-256 differs from the header's (corrupted)" };
  return { body };
}
