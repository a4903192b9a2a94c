/**
 * The host API over HTTP (siglab serve). Calls are POST /api/call/<method>; pushes come as
 * server-sent events. Pickers that a server cannot show (folders, files) are shown in the page.
 */
import { HOST_METHODS, type FileBytes, type HostApi, type HostEvent, type HostMethod, type InstallOutcome, type SaveOutcome } from "../../common/host-api.js";
import { isAllowedExternalUrl } from "../../common/url-policy.js";
import { decodeWire, encodeWire, type WireResponse } from "../../common/wire.js";
import { askText } from "../ui/modal.js";

async function post(path: string, body: unknown): Promise<unknown> {
  const res = await fetch(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: encodeWire(body),
    credentials: "same-origin",
  });
  const data = decodeWire(await res.text()) as WireResponse;
  if (!data.ok) throw new Error(data.error);
  return data.value;
}

function pickFile(accept: string): Promise<File | null> {
  return new Promise((resolve) => {
    const input = document.createElement("input");
    input.type = "file";
    input.accept = accept;
    input.addEventListener("change", () => resolve(input.files?.[0] ?? null));
    input.addEventListener("cancel", () => resolve(null));
    input.click();
  });
}

/**
 * Hands a file to the browser's downloads. Under `siglab serve` the server's disk is not
 * necessarily the user's (another browser profile, another user of the machine): exports and
 * bundles go where the browser puts downloads, as any web app's do.
 */
export function download(name: string, data: string | Uint8Array, type = "application/octet-stream"): SaveOutcome {
  const safe = name.replace(/[^A-Za-z0-9_.-]/g, "_").replace(/^\.+/, "").slice(0, 120) || "export";
  const url = URL.createObjectURL(new Blob([data as BlobPart], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = safe;
  a.rel = "noopener";
  document.body.append(a);
  a.click();
  a.remove();
  // the download has its own copy once it started; a minute is ample for the browser to take it
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
  return { saved: true, path: `${safe} (your browser's downloads)` };
}

const MIME: Record<string, string> = { csv: "text/csv", svg: "image/svg+xml", png: "image/png", json: "application/json", siglab: "application/octet-stream" };
const mimeOf = (name: string): string => MIME[/\.([a-z]+)$/.exec(name)?.[1] ?? ""] ?? "application/octet-stream";

export function createHttpHost(): HostApi {
  const call = (method: HostMethod) => (...args: unknown[]) => post(`/api/call/${method}`, { args });
  const api = Object.fromEntries(HOST_METHODS.map((m) => [m, call(m)])) as unknown as HostApi;
  const listeners = new Set<(e: HostEvent) => void>();
  let source: EventSource | null = null;
  return {
    ...api,
    async installPluginFromFolder(): Promise<InstallOutcome> {
      const folder = await askText("Install plugin from folder", "Path of the plugin folder on this computer (it must contain plugin.json):", "");
      if (!folder) return { installed: false };
      return (await post("/api/install-plugin", { folder })) as InstallOutcome;
    },
    async installPluginFromFile(): Promise<InstallOutcome> {
      const file = await pickFile(".siglab-plugin");
      if (!file) return { installed: false };
      // the server checks the archive whole; nothing here is trusted
      return (await post("/api/install-plugin-file", { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) })) as InstallOutcome;
    },
    async exportBundle(name: string, bytes: Uint8Array): Promise<SaveOutcome> {
      return download(name, bytes, mimeOf(name));
    },
    async saveExport(name: string, data: string | Uint8Array): Promise<SaveOutcome> {
      return download(name, data, mimeOf(name));
    },
    async importBundle(): Promise<FileBytes | null> {
      const file = await pickFile(".siglab");
      if (!file) return null;
      return { name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) };
    },
    async openExternal(url: string): Promise<boolean> {
      if (!isAllowedExternalUrl(url)) return false;
      window.open(url, "_blank", "noopener,noreferrer");
      return true;
    },
    onEvent(listener) {
      listeners.add(listener);
      if (!source) {
        source = new EventSource("/api/events");
        source.onmessage = (m) => {
          const ev = JSON.parse(m.data as string) as HostEvent;
          for (const l of listeners) l(ev);
        };
      }
      return () => listeners.delete(listener);
    },
  };
}
