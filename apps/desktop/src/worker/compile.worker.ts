/**
 * The compile worker: long-lived, trusted, and it runs no foreign code. It transpiles workloads
 * (TypeScript -> CommonJS) and instruments them and third-party plugins' JavaScript for the
 * allocation meter before they go to the execution host's sandbox worker, which never loads the
 * compiler (that worker is replaced after every runaway; the compiler would add ~0.7 s to each
 * start); it reads a workload's parameters from its text (the editor never runs a workload to
 * learn them); and it reads and writes .siglab bundles: bundle bytes are untrusted data, parsed
 * and validated by core's bundle code, never evaluated. Its CSP allows no eval and no network.
 */
import { readBundle, writeBundle, type BundleInput } from "@siglab/core/bundle";
import type { FromCompile, ToCompile } from "./protocol.js";
import { instrumentJavaScript } from "./meter-transform.js";
import { CompileError, transpileToCommonJs } from "./transpile.js";
import { readWorkloadOutline } from "./workload-outline.js";

interface WorkerScope {
  postMessage(m: FromCompile): void;
  addEventListener(t: "message", l: (e: MessageEvent<ToCompile>) => void): void;
}
const scope = globalThis as unknown as WorkerScope;
const post = (m: FromCompile): void => scope.postMessage(m);

function handle(msg: ToCompile): unknown {
  if (msg.type === "transpile") return transpileToCommonJs(msg.source, msg.file, { meter: true });
  if (msg.type === "instrument") return instrumentJavaScript(msg.js, msg.file);
  if (msg.type === "outline") return readWorkloadOutline(msg.source, msg.file);
  if (msg.type === "bundle-write") return writeBundle(msg.input as BundleInput);
  return readBundle(msg.bytes, { fileName: msg.fileName });
}

scope.addEventListener("message", (e) => {
  const msg = e.data;
  try {
    post({ type: "reply", reqId: msg.reqId, ok: true, value: handle(msg) });
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    post(err instanceof CompileError ? { type: "reply", reqId: msg.reqId, ok: false, error, line: err.line, column: err.column } : { type: "reply", reqId: msg.reqId, ok: false, error });
  }
});

post({ type: "ready" });
