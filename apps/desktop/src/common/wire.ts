/**
 * JSON encoding for the HTTP host: Uint8Array values travel as {"$bytes": "<base64>"}.
 * Works in Node 20 and browsers (btoa/atob exist in both).
 */
const CHUNK = 0x8000;

export function bytesToBase64(bytes: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < bytes.length; i += CHUNK) {
    bin += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(bin);
}

export function base64ToBytes(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function encodeWire(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v instanceof Uint8Array ? { $bytes: bytesToBase64(v) } : v,
  );
}

export function decodeWire(text: string): unknown {
  return JSON.parse(text, (_key, v: unknown) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const o = v as Record<string, unknown>;
      const keys = Object.keys(o);
      if (keys.length === 1 && keys[0] === "$bytes" && typeof o.$bytes === "string") return base64ToBytes(o.$bytes);
    }
    return v;
  });
}

/** Response envelope of POST /api/call/<method>. */
export type WireResponse = { ok: true; value: unknown } | { ok: false; error: string };
