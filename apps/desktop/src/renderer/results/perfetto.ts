/**
 * "Open in Perfetto": hands a trace to ui.perfetto.dev the way Perfetto documents it ("Deep
 * linking to the Perfetto UI": window.open, then 'PING' until the UI answers 'PONG', then one
 * message { perfetto: { buffer, title, fileName } }). Nothing is uploaded: the trace goes from
 * this page to that tab, and the Perfetto UI opens it locally in the browser.
 *
 * The page keeps its opener relationship with the tab it opens (the HTTP host sends
 * `Cross-Origin-Opener-Policy: same-origin-allow-popups`, common/csp.ts); the Electron app opens no
 * windows (main/security.ts sends the URL to the system browser), so there window.open gives
 * null and the caller saves the trace instead.
 */

/** Perfetto UI's origin: messages go only there, and only its answers count. */
export const PERFETTO_ORIGIN = "https://ui.perfetto.dev";

export type PerfettoOutcome = "opened" | "no-window" | "no-answer";

export interface PerfettoOptions {
  /** how long the UI may take to load and answer (it is a large web app) */
  timeoutMs?: number;
  /** tests serve a stand-in at this origin */
  origin?: string;
}

export function openInPerfetto(trace: string, title: string, fileName: string, opts: PerfettoOptions = {}): Promise<PerfettoOutcome> {
  const origin = opts.origin ?? PERFETTO_ORIGIN;
  // no "noopener": the UI accepts messages only from its opener
  const win = window.open(`${origin}/#!/`, "_blank");
  if (!win) return Promise.resolve("no-window");
  return new Promise((resolve) => {
    const ping = setInterval(() => win.postMessage("PING", origin), 100);
    const giveUp = setTimeout(() => finish("no-answer"), opts.timeoutMs ?? 30_000);
    const onMessage = (e: MessageEvent): void => {
      if (e.source !== win || e.origin !== origin || e.data !== "PONG") return;
      const buffer = new TextEncoder().encode(trace).buffer;
      win.postMessage({ perfetto: { buffer, title, fileName } }, origin, [buffer]);
      finish("opened");
    };
    function finish(outcome: PerfettoOutcome): void {
      clearInterval(ping);
      clearTimeout(giveUp);
      window.removeEventListener("message", onMessage);
      resolve(outcome);
    }
    window.addEventListener("message", onMessage);
  });
}
