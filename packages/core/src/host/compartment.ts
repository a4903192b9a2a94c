/**
 * Evaluation of foreign CommonJS code (a transpiled workload, a plugin's files) in a fresh
 * Hardened JavaScript Compartment: its own global object holding only the frozen shared
 * intrinsics, no host globals (process, fetch, postMessage, timers, console), tamed Function
 * constructors, no dynamic import(), no Date.now()/new Date(). `Math.random` is a generator seeded
 * from the run's seed, so identical runs stay identical.
 */
import { SimError } from "../kernel/sim-error.js";
import { MODULE_WRAPPER_PREFIX } from "./plugin-source-line.js";
import { seededMath } from "./seeded-math.js";

interface CompartmentLike {
  evaluate(source: string): unknown;
}
type CompartmentCtor = new (options: Record<string, unknown>) => CompartmentLike;

declare function harden<T>(x: T): T;

/**
 * Foreign code the sandbox refused: text SES rejects (a dynamic import, an HTML comment), a module
 * it may not import. Its kind, "refused", tells it from a syntax error (what the code says is
 * fine, what it tries is not allowed).
 */
export class SandboxEvalError extends SimError {
  constructor(message: string) {
    super("refused", message);
  }
}

function compartmentCtor(): CompartmentCtor {
  const C = (globalThis as { Compartment?: CompartmentCtor }).Compartment;
  if (!C || !Object.isFrozen(Object.prototype)) throw new SandboxEvalError("internal: foreign code can only be evaluated after lockdown() (import @siglab/core/host/lockdown.js first)");
  return C;
}

export interface EvaluateOptions {
  /** bare module names `require` knows, e.g. { siglab } */
  modules: Record<string, unknown>;
  seed: number;
  /** a multi-file module (a plugin): relative path -> source; relative requires resolve here */
  files?: Record<string, string>;
  /** `js`'s own path inside `files` (for relative requires) */
  entry?: string;
}

/** Evaluates `js` as a CommonJS module in a new compartment; returns module.exports. */
export function evaluateCommonJs(js: string, file: string, opts: EvaluateOptions): unknown {
  const Compartment = compartmentCtor();
  const c = new Compartment({ __options__: true, name: file, globals: { Math: seededMath(opts.seed) } });
  const names = Object.keys(opts.modules);
  const files = opts.files ?? {};
  const cache = new Map<string, { exports: unknown }>();
  const base = file.slice(0, file.length - (opts.entry?.length ?? 0));

  const load = (rel: string, code: string, display: string): unknown => {
    const hit = cache.get(rel);
    if (hit) return hit.exports;
    const module: { exports: unknown } = { exports: {} };
    cache.set(rel, module);
    if (rel.endsWith(".json")) {
      module.exports = harden(JSON.parse(code) as unknown);
      return module.exports;
    }
    const require = harden((id: unknown): unknown => {
      if (typeof id === "string" && Object.prototype.hasOwnProperty.call(opts.modules, id)) return opts.modules[id];
      if (typeof id === "string" && opts.files && (id.startsWith("./") || id.startsWith("../"))) {
        const target = resolveRelative(rel, id, files, display);
        return load(target, files[target]!, `${base}${target}`);
      }
      throw new SandboxEvalError(`${display}: cannot import ${JSON.stringify(String(id)).slice(0, 100)}: only ${names.map((n) => `"${n}"`).join(", ")}${opts.files ? " and the module's own files" : ""} can be imported here`);
    });
    let factory: unknown;
    try {
      factory = c.evaluate(`${MODULE_WRAPPER_PREFIX}${code}\n})\n//# sourceURL=${encodeURI(display)}`);
    } catch (e) {
      throw new SandboxEvalError(`${display}: ${sesRejection((e as Error).message) ?? (e as Error).message}`);
    }
    (factory as (r: unknown, m: unknown, e: unknown) => void)(require, module, module.exports);
    return module.exports;
  };
  return load(opts.entry ?? file, js, file);
}

function resolveRelative(from: string, id: string, files: Record<string, string>, display: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const seg of id.split("/")) {
    if (seg === "..") {
      if (!parts.length) throw new SandboxEvalError(`${display}: "${id}" leaves the plugin folder`);
      parts.pop();
    } else if (seg !== "." && seg !== "") parts.push(seg);
  }
  const p = parts.join("/");
  for (const cand of [p, `${p}.js`, `${p}.cjs`, `${p}.json`, `${p}/index.js`]) if (Object.prototype.hasOwnProperty.call(files, cand)) return cand;
  throw new SandboxEvalError(`${display}: cannot resolve "${id}"`);
}

/**
 * SES rejects, before evaluation, any text that could be an HTML comment or a dynamic import —
 * also inside strings and comments — and its message names a line of the transpiled code. Say
 * what to change instead.
 */
function sesRejection(message: string): string | null {
  if (message.includes("SES_HTML_COMMENT_REJECTED")) return `the text "<!--" or "-->" is refused anywhere in a module, even in a string or a comment (the sandbox cannot tell it from an HTML comment); write it as "<" + "!--" or "--" + ">"`;
  if (message.includes("SES_IMPORT_REJECTED")) return `the text "import(" is refused anywhere in a module, even in a string or a comment (the sandbox cannot tell it from a dynamic import); write it as "import" + "("`;
  return null;
}
