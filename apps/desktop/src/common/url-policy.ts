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
