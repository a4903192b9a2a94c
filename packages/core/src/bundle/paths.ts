/**
 * Entry-name rules. Zip entries become file paths when plugins are extracted, so anything that
 * could escape a target folder (zip slip) or collide on a case-insensitive file system is refused.
 */

const SEGMENT = /^[A-Za-z0-9._@+~-]+$/;
/** Device names Windows resolves whatever the extension or folder (CON, NUL.txt, …). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;
export const MAX_ENTRY_NAME = 240;

/** Why `name` is not a safe relative entry path, or undefined when it is. Directories end in "/". */
export function unsafeEntryReason(name: string): string | undefined {
  if (name.length === 0) return "empty entry name";
  if (name.length > MAX_ENTRY_NAME) return `entry name longer than ${MAX_ENTRY_NAME} characters`;
  if (name.includes("\\")) return "backslash in entry name";
  if (name.startsWith("/")) return "absolute path";
  if (/^[A-Za-z]:/.test(name)) return "absolute path (drive letter)";
  const body = name.endsWith("/") ? name.slice(0, -1) : name;
  const segments = body.split("/");
  for (const seg of segments) {
    if (seg === "..") return "parent-directory segment (..)";
    if (seg === "." || seg === "") return "empty or '.' path segment";
    if (!SEGMENT.test(seg)) return "characters outside A-Z a-z 0-9 . _ @ + ~ - in entry name";
    // Windows drops trailing dots ("a." is "a") and maps device names to devices
    if (seg.endsWith(".")) return "path segment ending in '.'";
    if (WINDOWS_DEVICE.test(seg)) return `reserved device name ${JSON.stringify(seg)}`;
  }
  return undefined;
}

/** Key used to detect duplicates: entries that differ only in case collide on many file systems. */
export function entryKey(name: string): string {
  return name.toLowerCase();
}

/** A workload or profile id usable as a file name stem. */
export const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._@+~-]{0,127}$/;
