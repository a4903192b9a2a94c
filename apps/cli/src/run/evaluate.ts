/**
 * Evaluation of untrusted workload (and plugin) JavaScript in a fresh V8 context: no require but
 * "siglab", no process, no fs, no network, no eval/new Function (codeGeneration off). This runs
 * inside a worker thread that the parent kills on its time budget.
 */
import vm from "node:vm";

export function evaluateInSandbox(js: string, file: string, modules: Record<string, unknown>): unknown {
  const context = vm.createContext(Object.create(null), {
    name: `siglab sandbox: ${file}`,
    codeGeneration: { strings: false, wasm: false },
  });
  const wrapper = `(function (require, module, exports) {${js}\n})`;
  const fn = new vm.Script(wrapper, { filename: file }).runInContext(context, { timeout: 5_000 }) as (req: (id: string) => unknown, m: { exports: unknown }, e: unknown) => void;
  const module = { exports: {} as unknown };
  const req = (id: string): unknown => {
    if (Object.prototype.hasOwnProperty.call(modules, id)) return modules[id];
    throw new Error(`${file}: cannot import '${id}': workloads may only import "siglab"`);
  };
  fn(req, module, module.exports);
  return module.exports;
}
