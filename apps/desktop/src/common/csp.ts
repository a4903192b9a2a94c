/**
 * Content-Security-Policies, set as response headers by both hosts (the siglab:// protocol handler
 * and the HTTP server). The page may not eval; only the simulation worker may: it is the execution
 * host's sandbox worker, whose Hardened JavaScript Compartments evaluate workload and plugin code
 * (Compartment.evaluate needs 'unsafe-eval'), and that worker may not reach the network or start
 * workers. Everything else (the page, the compile worker, Monaco's workers) runs without eval.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Monaco inserts <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** The simulation (sandbox) worker: eval for the Compartments, no network, no nested workers. */
export const SIM_WORKER_CSP = [
  "default-src 'none'",
  "script-src 'self' 'unsafe-eval'",
  "connect-src 'none'",
  "worker-src 'none'",
].join("; ");

/** Monaco's language workers: code from the app only, no network. */
export const EDITOR_WORKER_CSP = ["default-src 'none'", "script-src 'self'", "connect-src 'none'"].join("; ");

/** The compile worker (TypeScript transpiling, bundle bytes): no eval, no network, no nested workers. */
export const COMPILE_WORKER_CSP = ["default-src 'none'", "script-src 'self'", "connect-src 'none'", "worker-src 'none'"].join("; ");

/** Where Vite puts worker chunks (see vite.renderer.config.ts). */
export const WORKER_DIR = "workers/";
export const SIM_WORKER_PREFIX = "workers/sim.worker";
export const COMPILE_WORKER_PREFIX = "workers/compile.worker";

/** The CSP for a renderer asset path like "workers/sim.worker-abc123.js" (relative to the root). */
export function cspFor(relPath: string): string {
  if (relPath.startsWith(SIM_WORKER_PREFIX)) return SIM_WORKER_CSP;
  if (relPath.startsWith(COMPILE_WORKER_PREFIX)) return COMPILE_WORKER_CSP;
  if (relPath.startsWith(WORKER_DIR)) return EDITOR_WORKER_CSP;
  return RENDERER_CSP;
}

/** Security headers every renderer response carries. */
export function securityHeaders(relPath: string): Record<string, string> {
  return {
    "Content-Security-Policy": cspFor(relPath),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    // not "same-origin": "Open in Perfetto" posts the trace to the ui.perfetto.dev tab it opens
    // (renderer/results/perfetto.ts); a page that opens SigLab still gets no handle on it
    "Cross-Origin-Opener-Policy": "same-origin-allow-popups",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
}

const MIME: Record<string, string> = {
  html: "text/html; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  json: "application/json; charset=utf-8",
  svg: "image/svg+xml",
  png: "image/png",
  ico: "image/x-icon",
  ttf: "font/ttf",
  woff: "font/woff",
  woff2: "font/woff2",
  map: "application/json; charset=utf-8",
  wasm: "application/wasm",
  txt: "text/plain; charset=utf-8",
};

export function mimeFor(relPath: string): string {
  const ext = relPath.slice(relPath.lastIndexOf(".") + 1).toLowerCase();
  return MIME[ext] ?? "application/octet-stream";
}
