/** Which external links the app opens in the system browser: https only, no credentials. */
export function isAllowedExternalUrl(raw: string): boolean {
  if (typeof raw !== "string" || raw.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  return url.protocol === "https:" && url.username === "" && url.password === "" && url.hostname.includes(".");
}

/** Where the path inspector links a Linux function by default: an LXR-style browser of 2.4.18. */
export const DEFAULT_SOURCE_URL_TEMPLATE = "https://elixir.bootlin.com/linux/2.4.18/C/ident/{fn}";

/** A C identifier: the only function names the inspector links (not "int $0x80", "#NM", "user code"). */
const C_IDENT = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** Names of the simulator's own op groups that are not Linux functions (they get no link). */
const NOT_KERNEL = new Set(["libc", "user", "handler", "idle", "glibc", "pth", "ngpt", "libc_r", "linuxthreads", "uml"]);

/** Why a source-link template cannot be used, or null when it can. */
export function checkSourceUrlTemplate(template: string): string | null {
  if (typeof template !== "string" || template.length === 0) return "give a URL";
  if (template.length > 1024) return "the template is longer than 1024 characters";
  if (!template.includes("{fn}")) return "the template must contain {fn} where the function name goes";
  const sample = template.split("{fn}").join("do_signal");
  if (!isAllowedExternalUrl(sample)) return "links must be https: URLs to a named host, without user name or password";
  return null;
}

/**
 * The source link of a Linux function under `template` ("{fn}" replaced by the URL-encoded
 * name), or null when the name is not a C identifier or the result is not an allowed external URL.
 */
export function sourceUrl(template: string, fn: string): string | null {
  if (!C_IDENT.test(fn) || NOT_KERNEL.has(fn)) return null;
  if (checkSourceUrlTemplate(template) !== null) return null;
  const url = template.split("{fn}").join(encodeURIComponent(fn));
  return isAllowedExternalUrl(url) ? url : null;
}
