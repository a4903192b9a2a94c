/** Picks the host: Electron's preload API when present, else the HTTP host of `siglab serve`. */
import type { HostApi } from "../../common/host-api.js";
import { createHttpHost } from "./http-host.js";

declare global {
  interface Window {
    siglab?: HostApi;
  }
}

/** Electron wraps main-process errors as "Error invoking remote method 'siglab:call': Error: <msg>". */
function unwrapIpcErrors(api: HostApi): HostApi {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(api)) {
    out[k] =
      typeof v === "function" && k !== "onEvent"
        ? async (...args: unknown[]) => {
            try {
              return await (v as (...a: unknown[]) => Promise<unknown>)(...args);
            } catch (err) {
              const msg = (err as Error).message.replace(/^Error invoking remote method '[^']+': (?:\w*Error: )?/, "");
              throw new Error(msg);
            }
          }
        : v;
  }
  return out as unknown as HostApi;
}

export function getHost(): HostApi {
  return window.siglab ? unwrapIpcErrors(window.siglab) : createHttpHost();
}
