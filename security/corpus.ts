/**
 * The attack corpus of SigLab's execution host (issue 10): workloads written by an attacker, each
 * with the outcome the host must produce. PURE data and pure functions — no Node imports — so the
 * same cases run through the Node execution host (security/node-host.test.ts) and through the
 * desktop app's worker host in Chromium.
 *
 * A case's workload imports only from "siglab". Where the workload itself can tell whether an
 * escape worked, it reports a metric (1 = blocked, 0 = the escape worked) and the expectation
 * names the metric; otherwise the run must fail with a clean one-line error matching a pattern.
 * `checkResult(c, result)` applies a case's expectation to a RunResult and lists what is wrong.
 */

/** What a runner must observe. Fields combine: `error` with `metrics` = fails, after reporting. */
export interface Expectation {
  /** the run fails with an error whose message matches (absent: the run must not fail) */
  error?: RegExp;
  /** ... and whose kind is this (e.g. "budget", "workload", "config") */
  kind?: string;
  /** a metric the workload reported has this value (1 = blocked) */
  metric?: { name: string; equals: number };
  /** several such metrics */
  metrics?: { name: string; equals: number }[];
  /** the same case run with `same` seeds gives equal values of `metric`, with `different` unequal ones */
  seeds?: { metric: string; same: [number, number]; different: [number, number] };
  /** any one of these is fine (e.g. an allocation refused by the engine, or stopped by the budget) */
  oneOf?: Expectation[];
}

export interface AttackCase {
  id: string;
  /** the escape class of issue 10 */
  group: Group;
  title: string;
  /** the workload (TypeScript, imports only "siglab") */
  source: string;
  params?: Record<string, number | string | boolean>;
  seed?: number;
  budget?: { maxHostMs?: number; maxSteps?: number; maxCycles?: number };
  /** kernel variants (built-in plugin ids) */
  variants?: { id: string }[];
  expect: Expectation;
  /** the RunResult as JSON must stay below this many characters (output bombs) */
  maxResultChars?: number;
  /**
   * The case tries to change what LATER runs in the same host see: a runner runs REFERENCE_WORKLOAD
   * after it and compares that result byte for byte with the reference run in a fresh host.
   */
  crossRun?: boolean;
  /** slow: needs seconds of host time (a budget must fire); runners may give it its own host */
  slow?: boolean;
}

export type Group =
  | "constructor-chain"
  | "host-global"
  | "dynamic-import"
  | "simulator"
  | "forge"
  | "nondeterminism"
  | "out-of-turn"
  | "frame"
  | "proxy"
  | "output"
  | "runaway"
  | "memory";

/** The shape of a RunResult this module needs (structurally compatible with @siglab/core's). */
export interface RunResultLike {
  metrics: { name: string; value: number }[];
  totalCycles: number;
  error?: { kind: string; message: string };
}

// ---------------------------------------------------------------------------------------------
// helpers compiled into the workloads

/**
 * Inlined at the top of most workloads. `isHost(v)`: v is a global object of a host realm (Node's
 * or a browser worker's), recognised by names the compartment's global never has.
 * `ctorBlocked(x)`: 1 when no constructor reachable from x or its prototype chain (x.constructor,
 * x.constructor.constructor, ...) evaluates code in a host realm; 0 when one does.
 */
export const PRELUDE = `
const __G: any = globalThis;
const __MARKS = ["process", "require", "Buffer", "fetch", "postMessage", "importScripts", "setTimeout", "WebAssembly", "XMLHttpRequest"];
function isHost(v: any): boolean {
  if (v === null || v === undefined || v === __G) return false;
  if (typeof v !== "object" && typeof v !== "function") return false;
  try { for (const k of __MARKS) if (k in v) return true; } catch { return false; }
  return false;
}
function __escapes(f: any): boolean {
  for (const src of ["return globalThis", "return this", "return typeof process === 'undefined' ? undefined : process"]) {
    for (const asNew of [false, true]) {
      try {
        let g = asNew ? new f(src) : f(src);
        if (typeof g === "function") g = g();
        if (isHost(g)) return true;
      } catch {}
    }
  }
  return false;
}
function ctorBlocked(x: any): number {
  const cands: any[] = [];
  let o = x;
  for (let depth = 0; o !== null && o !== undefined && depth < 10; depth++) {
    let c: any;
    try { c = o.constructor; } catch { c = undefined; }
    for (let i = 0; i < 4 && typeof c === "function"; i++) {
      if (!cands.includes(c)) cands.push(c);
      try { c = c.constructor; } catch { break; }
    }
    try { o = Object.getPrototypeOf(o); } catch { break; }
  }
  for (const f of cands) if (__escapes(f)) return 0;
  return 1;
}
/** 1 when calling f throws or gives nothing of the host */
function blocked(f: () => unknown): number {
  try { return isHost(f()) ? 0 : 1; } catch { return 1; }
}
/** 1 when f throws */
function throws(f: () => unknown): number {
  try { f(); return 0; } catch { return 1; }
}
`;

const HEAD = `import * as siglab from "siglab";\nimport { workload, SIGUSR1, SIGUSR2, SA_SIGINFO } from "siglab";\n${PRELUDE}\n`;

/** a workload whose main body is `body` (with `t` and `params`), after `top` at module level */
function wl(body: string, top = "", extra: { params?: string } = {}): string {
  return `${HEAD}${top}
export default workload({
  name: "attack",
  params: ${extra.params ?? "{ n: 1 }"},
  *main(t: any, params: any) {
${body}
  },
});
`;
}

// ---------------------------------------------------------------------------------------------
// 1. constructor chains to a host Function, from every object a workload can reach

interface Chain {
  id: string;
  title: string;
  /** code at the top of the module (may set `let top: any`) */
  top?: string;
  /** code in main that calls report(name, ctorBlocked(obj)) for each object */
  body: string;
  budget?: AttackCase["budget"];
  expect?: Expectation;
  /** metrics reported under computed names (each must be 1) */
  metrics?: string[];
}

const r = (name: string, expr: string) => `    t.report(${JSON.stringify(name)}, ctorBlocked(${expr}), "");\n`;

const CHAINS: Chain[] = [
  {
    id: "ctor-require",
    title: "require.constructor / require.__proto__.constructor",
    top: `const topRequire = ctorBlocked(require) + blocked(() => (require as any).constructor("return process")());\n`,
    body: `    t.report("require", topRequire === 2 ? 1 : 0, "");\n`,
  },
  {
    id: "ctor-module-exports",
    title: "module and exports (and module.exports) constructors",
    top: `const topModule = ctorBlocked(module) & ctorBlocked(exports) & ctorBlocked(module.exports) & blocked(() => (module as any).constructor.constructor("return process")());\n`,
    body: `    t.report("module", topModule, "");\n`,
  },
  {
    id: "ctor-siglab-module",
    title: "the siglab module namespace and its workload() function",
    body: r("siglab", "siglab") + r("workload", "siglab.workload") + r("workload-import", "workload") + `    t.report("workload.constructor", blocked(() => (workload as any).constructor("return process")()), "");\n`,
  },
  {
    id: "ctor-definition",
    title: "the workload definition object workload() returned",
    top: `let def: any;\n`,
    body: r("definition", "def") + r("definition.main", "def.main"),
  },
  {
    id: "ctor-thread",
    title: "t and its sub-objects (fpu, regs, libc, pthread) and methods",
    body:
      r("t", "t") + r("t.fpu", "t.fpu") + r("t.regs", "t.regs") + r("t.libc", "t.libc") + r("t.pthread", "t.pthread") +
      r("t.rdtsc", "t.rdtsc") + r("t.getpid", "t.getpid") + r("t.fpu.set", "t.fpu.set") + r("t.pthread.create", "t.pthread.create") +
      `    t.report("t.rdtsc.constructor", blocked(() => t.rdtsc.constructor("return process")()), "");\n`,
  },
  {
    id: "ctor-params",
    title: "params (main's second argument) and t.params",
    body: r("params", "params") + r("t.params", "t.params"),
  },
  {
    id: "ctor-handler",
    title: "a signal handler's h, h.frame, h.frame.sigcontext, h.frame.fpstate and its arrays",
    body: `    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.fpu.set("st0", 1.5);
    yield* t.sigaction(SIGUSR1, function* (h: any) {
${r("h", "h")}${r("h.frame", "h.frame")}${r("h.frame.sigcontext", "h.frame.sigcontext")}${r("h.frame.fpstate", "h.frame.fpstate")}${r("h.frame.fpstate.st", "h.frame.fpstate.st")}${r("h.frame.fpstate.xmm", "h.frame.fpstate.xmm")}${r("h.frame.fpstate.xmm[0]", "h.frame.fpstate.xmm[0]")}${r("h.frame.sigmask", "h.frame.sigmask")}${r("h.fpu", "h.fpu")}
      const d = Object.getOwnPropertyDescriptor(h.frame.sigcontext, "eax");
      t.report("sigcontext getter", ctorBlocked(d && d.get) & ctorBlocked(d && d.set), "");
      t.report("h.frame.fpstate present", h.frame.fpstate ? 1 : 0, "");
    });
    yield* t.kill(t.pid, SIGUSR1);
`,
  },
  {
    id: "ctor-siginfo",
    title: "h.info of an SA_SIGINFO handler (sigqueue value) and sigtimedwait's siginfo",
    body: `    yield* t.sigaction(SIGUSR2, function* (h: any) {
${r("h.info", "h.info")}      t.report("h.info present", h.info ? 1 : 0, "");
    }, { flags: SA_SIGINFO });
    yield* t.sigqueue(t.pid, SIGUSR2, 7);
    yield* t.sigprocmask(0, [SIGUSR1]);
    yield* t.kill(t.pid, SIGUSR1);
    const info = yield* t.sigtimedwait([SIGUSR1], 0);
${r("sigtimedwait info", "info")}`,
  },
  {
    id: "ctor-jmpbuf",
    title: "a jmp_buf token from t.setjmp, setjmp's result and the caught longjmp",
    body: `    let caught: any = null;
    const res = yield* t.setjmp(function* (jb: any) {
${r("jb", "jb")}      try { t.longjmp(jb, 3); } catch (e) { caught = e; throw e; }
      return 0;
    });
${r("setjmp result", "res")}${r("caught longjmp", "caught")}    t.report("jumped", res.jumped ? 1 : 0, "");
`,
  },
  {
    id: "ctor-generators",
    title: "generator objects returned by the API (t.getpid(), fpu, libc, pthread, sigaction) and their prototypes",
    body: `    const gens: [string, any][] = [["getpid", t.getpid()], ["gettimeofday", t.gettimeofday()], ["fpu.get", t.fpu.get("st0")], ["fpu.ops", t.fpu.ops(1)],
      ["libc.memcpy", t.libc.memcpy(64)], ["libc.gettimeofday", t.libc.gettimeofday()], ["pthread.yield", t.pthread.yield()],
      ["pthread.create", t.pthread.create(function* () { return 0; })], ["sigaction", t.sigaction(SIGUSR1, "ignore")], ["setjmp", t.setjmp(function* () { return 1; })],
      ["compute", t.compute(10)], ["kill", t.kill(t.pid, 0)], ["syscall", t.syscall(20)]];
    for (const [name, g] of gens) {
      t.report("gen " + name, ctorBlocked(g) & ctorBlocked(Object.getPrototypeOf(g)) & ctorBlocked(g.next) & ctorBlocked(Object.getPrototypeOf(Object.getPrototypeOf(g))), "");
      const v = yield* g;
      if (v !== null && typeof v === "object") t.report("value " + name, ctorBlocked(v), "");
    }
`,
    metrics: [
      ...["getpid", "gettimeofday", "fpu.get", "fpu.ops", "libc.memcpy", "libc.gettimeofday", "pthread.yield", "pthread.create", "sigaction", "setjmp", "compute", "kill", "syscall"].map((n) => `gen ${n}`),
      ...["gettimeofday", "fpu.get", "libc.gettimeofday", "pthread.create", "setjmp"].map((n) => `value ${n}`),
    ],
  },
  {
    id: "ctor-caught-typeerror",
    title: "a TypeError the host throws for a bad argument (t.kill(\"x\", 1)) and other host errors",
    body: `    const errs: [string, () => unknown][] = [["kill", () => t.kill("x", 1)], ["report", () => t.report({}, 1, "")], ["regs", () => t.regs.set("cr3", 1)], ["longjmp", () => t.longjmp({}, 1)], ["pthread.join", () => t.pthread.join(null)]];
    for (const [name, f] of errs) {
      let e: any = null;
      try { const g: any = f(); if (g && typeof g.next === "function") g.next(); } catch (x) { e = x; }
      t.report("caught " + name, e === null ? -1 : ctorBlocked(e) & ctorBlocked(e.constructor) & ctorBlocked(Object.getPrototypeOf(e.constructor)), "");
    }
`,
    metrics: ["kill", "report", "regs", "longjmp", "pthread.join"].map((n) => `caught ${n}`),
  },
  {
    id: "ctor-caught-budget-error",
    title: "the step-budget error caught by the workload (the host's own error class)",
    budget: { maxSteps: 2_000 },
    body: `    let e: any = null;
    try { for (;;) yield* t.getpid(); } catch (x) { e = x; }
    t.report("caught budget error", e === null ? -1 : ctorBlocked(e) & ctorBlocked(e.constructor) & ctorBlocked(Object.getPrototypeOf(e.constructor)), "");
`,
    expect: { error: /step budget/, kind: "budget", metric: { name: "caught budget error", equals: 1 } },
  },
  {
    id: "ctor-pthread",
    title: "pthread.create handles, a thread body's t, clone/fork bodies' t",
    body: `    let bodyT: any = null, cloneT: any = null, forkT: any = null;
    const h = yield* t.pthread.create(function* (t2: any) { bodyT = t2; return 0; });
${r("pthread handle", "h")}    yield* t.pthread.join(h);
${r("pthread body t", "bodyT")}    yield* t.clone(function* (t3: any) { cloneT = t3; return 0; });
    yield* t.fork(function* (t4: any) { forkT = t4; return 0; });
    yield* t.wait();
    yield* t.nanosleep(1_000_000);
${r("clone body t", "cloneT")}${r("fork body t", "forkT")}`,
  },
  {
    id: "ctor-returned-values",
    title: "plain values the API returns (gettimeofday, pipe, select, wait, sigprocmask, fpu.get)",
    body: `    const tv = yield* t.gettimeofday();
    const fds = yield* t.pipe();
    yield* t.write(fds[1], 8);
    const sel = yield* t.select([fds[0]], [], 0);
    const mask = yield* t.sigprocmask(0, [SIGUSR1]);
    const st = yield* t.fpu.get("st0");
${r("gettimeofday", "tv")}${r("pipe", "fds")}${r("select", "sel")}${r("sigprocmask", "mask")}${r("fpu.get", "st")}`,
  },
];

function chainCase(c: Chain): AttackCase {
  let source = wl(c.body, c.top ?? "");
  if (c.id === "ctor-definition") source = source.replace("export default workload({", "export default def = workload({");
  // every metric the body reports must be 1 (blocked; or present/jumped for the sanity checks)
  const literal = [...c.body.matchAll(/t\.report\("([^"]+)", /g)].map((m) => m[1]!);
  const expect: Expectation = c.expect ?? { metrics: [...literal, ...(c.metrics ?? [])].map((name) => ({ name, equals: 1 })) };
  const out: AttackCase = { id: c.id, group: "constructor-chain", title: `constructor chain: ${c.title}`, source, expect };
  if (c.budget) out.budget = c.budget;
  return out;
}

/**
 * Breadth-first walk over everything reachable from the roots (own properties, getters called,
 * setters, prototypes): every `constructor` found is tried as a Function constructor, every object
 * is checked for being a host global, and every prototype reached must be frozen.
 */
const WALK = `
function walk(roots: Record<string, unknown>, skip: unknown[]): { n: number; escapes: string[]; mutableProtos: string[] } {
  const seen = new Set<unknown>(skip);
  const q: [unknown, string][] = Object.keys(roots).map((k) => [roots[k], k]);
  const escapes: string[] = [], mutableProtos: string[] = [];
  let n = 0;
  while (q.length && n < 50000) {
    const [x, path] = q.shift()!;
    if (x === null || (typeof x !== "object" && typeof x !== "function") || seen.has(x)) continue;
    seen.add(x);
    n++;
    if (isHost(x)) escapes.push(path);
    let p: unknown = null;
    try { p = Object.getPrototypeOf(x); } catch {}
    if (p && !Object.isFrozen(p)) mutableProtos.push(path + ".__proto__");
    q.push([p, path + ".__proto__"]);
    let c: unknown;
    try { c = (x as any).constructor; } catch {}
    if (typeof c === "function" && __escapes(c)) escapes.push(path + ".constructor");
    let keys: (string | symbol)[] = [];
    try { keys = Reflect.ownKeys(x as object); } catch {}
    for (const k of keys) {
      let d: PropertyDescriptor | undefined;
      try { d = Object.getOwnPropertyDescriptor(x, k); } catch { continue; }
      if (!d) continue;
      const kp = path + "." + String(k);
      if ("value" in d) q.push([d.value, kp]);
      if (d.get) { q.push([d.get, kp + "<get>"]); try { q.push([(d.get as any).call(x), kp]); } catch {} }
      if (d.set) q.push([d.set, kp + "<set>"]);
    }
  }
  return { n, escapes, mutableProtos };
}
`;

const walkCase: AttackCase = {
  id: "ctor-walk-everything",
  group: "constructor-chain",
  title: "walk every object reachable from every endowment: no host global, no host Function constructor, no mutable prototype",
  budget: { maxSteps: 5_000 },
  source: wl(
    `    const roots: Record<string, unknown> = { require: topRefs.require, module: topRefs.module, exports: topRefs.exports, siglab, t, params, globalThis: __G, def: theDef };
    try { yield* t.kill("x", 1); } catch (e) { roots.typeError = e; }
    roots.gen = t.getpid(); yield* (roots.gen as any);
    roots.fpuGen = t.fpu.get("st0"); yield* (roots.fpuGen as any);
    roots.memcpyGen = t.libc.memcpy(64); yield* (roots.memcpyGen as any);
    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.sigaction(SIGUSR1, function* (h: any) { roots.h = h; roots.frame = h.frame; roots.sc = h.frame.sigcontext; roots.fp = h.frame.fpstate; });
    yield* t.kill(t.pid, SIGUSR1);
    yield* t.sigaction(SIGUSR2, function* (h: any) { roots.hInfo = h; roots.info = h.info; }, { flags: SA_SIGINFO });
    yield* t.sigqueue(t.pid, SIGUSR2, 1);
    yield* t.setjmp(function* (jb: any) { roots.jb = jb; try { t.longjmp(jb, 3); } catch (e) { roots.longjmp = e; throw e; } });
    const ph = yield* t.pthread.create(function* (t2: any) { roots.t2 = t2; return 0; });
    roots.pthreadHandle = ph;
    yield* t.pthread.join(ph);
    try { for (;;) yield* t.getpid(); } catch (e) { roots.budgetError = e; }
    const w = walk(roots, [theDef.main]);
    t.report("reached", w.n > 100 ? 1 : 0, "");
    t.report("escapes", w.escapes.length, "");
    t.report("mutable prototypes", w.mutableProtos.length, "");
    if (w.escapes.length) t.log("escapes: " + w.escapes.slice(0, 20).join(" | "));
    if (w.mutableProtos.length) t.log("mutable prototypes: " + w.mutableProtos.slice(0, 20).join(" | "));
`,
    `${WALK}\nconst topRefs = { require, module, exports };\nlet theDef: any;\n`,
  ).replace("export default workload({", "export default theDef = workload({"),
  expect: {
    error: /step budget/,
    metrics: [
      { name: "reached", equals: 1 },
      { name: "escapes", equals: 0 },
      { name: "mutable prototypes", equals: 0 },
    ],
  },
};

// ---------------------------------------------------------------------------------------------
// the cases

const G = (id: string, group: Group, title: string, source: string, expect: Expectation, more: Partial<AttackCase> = {}): AttackCase => ({ id, group, title, source, expect, ...more });

const HOST_GLOBALS = [
  "process", "require", "module", "global", "Buffer", "fetch", "XMLHttpRequest", "WebSocket", "EventSource", "postMessage", "self", "window", "importScripts",
  "setTimeout", "setInterval", "setImmediate", "queueMicrotask", "console", "SharedArrayBuffer", "Atomics", "WebAssembly", "performance", "crypto",
  "navigator", "location", "Worker", "MessageChannel", "BroadcastChannel", "structuredClone", "indexedDB", "caches", "Deno", "Bun",
];

const hostGlobals = G(
  "host-globals",
  "host-global",
  "host globals are absent: process, require, fetch, XMLHttpRequest, WebSocket, postMessage, self, importScripts, timers, console, Buffer, SharedArrayBuffer, WebAssembly, ...",
  wl(
    `    for (const name of ${JSON.stringify(HOST_GLOBALS)}) {
      let absent = 1;
      try { if (typeof (__G as any)[name] !== "undefined") absent = 0; } catch {}
      try { if ((0, eval)("typeof " + name) !== "undefined") absent = 0; } catch {}
      try { if (Function("return typeof " + name)() !== "undefined") absent = 0; } catch {}
      t.report("absent " + name, absent, "");
    }
    t.report("top-level saw no process", topSaw, "");
    // every name on the compartment's global object is a plain JavaScript intrinsic
    const allowed = ${JSON.stringify([
      "Infinity", "NaN", "undefined", "isFinite", "isNaN", "parseFloat", "parseInt", "decodeURI", "decodeURIComponent", "encodeURI", "encodeURIComponent",
      "Array", "ArrayBuffer", "BigInt", "BigInt64Array", "BigUint64Array", "Boolean", "DataView", "EvalError", "Float32Array", "Float64Array", "Int8Array", "Int16Array", "Int32Array",
      "Map", "Number", "Object", "Promise", "Proxy", "RangeError", "ReferenceError", "Set", "String", "SyntaxError", "TypeError", "Uint8Array", "Uint8ClampedArray", "Uint16Array", "Uint32Array",
      "URIError", "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "AggregateError", "JSON", "Reflect", "TextEncoder", "TextDecoder", "escape", "unescape", "lockdown", "harden", "Date", "Error", "RegExp", "Symbol", "Math",
      "globalThis", "Compartment", "eval", "Function", "Iterator", "Float16Array", "ModuleSource", "assert",
      // newer engines (Chromium): SES hands compartments a powerless Temporal (no Temporal.Now; see date-now-refused)
      "Temporal",
    ])};
    const extra = Reflect.ownKeys(__G).filter((k) => typeof k === "string").map(String).filter((k) => !allowed.includes(k));
    t.report("unexpected globals", extra.length, "");
    if (extra.length) t.log("unexpected globals: " + extra.join(", "));
    // walk globalThis and everything on it for a host global
    let hostFound = 0;
    const seen = new Set<unknown>();
    const q: unknown[] = [__G];
    while (q.length && seen.size < 20000) {
      const x = q.shift();
      if (x === null || (typeof x !== "object" && typeof x !== "function") || seen.has(x)) continue;
      seen.add(x);
      if (isHost(x)) hostFound++;
      try { q.push(Object.getPrototypeOf(x)); } catch {}
      for (const k of Reflect.ownKeys(x as object)) {
        try { const d = Object.getOwnPropertyDescriptor(x, k); if (d && "value" in d) q.push(d.value); else if (d && d.get) q.push(d.get.call(x)); } catch {}
      }
    }
    t.report("globalThis walk", hostFound === 0 ? 1 : 0, "");
`,
    `let topSaw = 1;\ntry { if (typeof (globalThis as any).process !== "undefined") topSaw = 0; } catch {}\n`,
  ),
  { metrics: [...HOST_GLOBALS.map((n) => ({ name: `absent ${n}`, equals: 1 })), { name: "top-level saw no process", equals: 1 }, { name: "unexpected globals", equals: 0 }, { name: "globalThis walk", equals: 1 }] },
);

const REQUIRES = ["fs", "node:fs", "child_process", "node:child_process", "worker_threads", "net", "http", "os", "module", "vm", "inspector", "process", "../../package.json", "./x", "/etc/passwd", "@siglab/core", "inversify", "ses", "@siglab/plugin-api"];

const requireNode = G(
  "require-node-modules",
  "host-global",
  "require() knows only \"siglab\": fs, child_process, net, vm, relative paths, core packages are refused",
  wl(
    `    for (const id of ${JSON.stringify(REQUIRES)}) t.report("refused " + id, topResults[id] ?? -1, "");
    t.report("siglab allowed", topSiglab, "");
`,
    `const topResults: Record<string, number> = {};\nfor (const id of ${JSON.stringify(REQUIRES)}) topResults[id] = throws(() => require(id));\nconst topSiglab = require("siglab") ? 1 : 0;\n`,
  ),
  { metrics: [...REQUIRES.map((id) => ({ name: `refused ${id}`, equals: 1 })), { name: "siglab allowed", equals: 1 }] },
);

const hostFiles = G(
  "open-host-files",
  "host-global",
  "t.open and the simulated file system never reach the host's files",
  wl(`    for (const p of ["/etc/passwd", "../../package.json", "/proc/self/environ", "package.json", "/dev/tty", "/dev/stdin"]) {
      const fd = yield* t.open(p);
      t.report("refused " + p, fd < 0 ? 1 : 0, "");
    }
`),
  { metrics: ["/etc/passwd", "../../package.json", "/proc/self/environ", "package.json", "/dev/tty", "/dev/stdin"].map((p) => ({ name: `refused ${p}`, equals: 1 })) },
);

const nestedCompartment = G(
  "nested-compartment",
  "host-global",
  "a Compartment made by the workload, eval and Function evaluate in a confined scope",
  wl(`    const C = (__G as any).Compartment;
    t.report("compartment evaluate", blocked(() => new C().evaluate("typeof process === 'undefined' ? globalThis : process")), "");
    t.report("compartment globals", blocked(() => new C({ globals: {} }).globalThis.Function("return this")()), "");
    t.report("compartment importNow", throws(() => new C().importNow("fs")), "");
    t.report("eval", blocked(() => (0, eval)("this")), "");
    t.report("Function", blocked(() => Function("return this")()), "");
    t.report("lockdown again", throws(() => (__G as any).lockdown()), "");
`),
  { metrics: ["compartment evaluate", "compartment globals", "compartment importNow", "eval", "Function", "lockdown again"].map((name) => ({ name, equals: 1 })) },
);

// ---- dynamic import -------------------------------------------------------------------------

const IMP = `"imp" + "ort"`; // keeps the text "import(" out of the module source itself

const dynamicImportEval = G(
  "dynamic-import-eval",
  "dynamic-import",
  "import() through eval, Function, a generator Function and a Compartment is refused synchronously",
  wl(`    const src = ${IMP} + "('node:fs')";
    t.report("eval", throws(() => (0, eval)(src)), "");
    t.report("Function", throws(() => Function("return " + src)), "");
    t.report("GeneratorFunction", throws(() => Object.getPrototypeOf(function* () {}).constructor("return " + src)), "");
    t.report("Compartment", throws(() => new (__G as any).Compartment().evaluate(src)), "");
`),
  { metrics: ["eval", "Function", "GeneratorFunction", "Compartment"].map((name) => ({ name, equals: 1 })) },
);

const dynamicImportSource = G(
  "dynamic-import-source",
  "dynamic-import",
  "import(\"node:fs\") written in the workload: refused at load, or a promise that never gets the module (no crash, no trace)",
  `import { workload } from "siglab";
let p: unknown = null;
try { p = import("node:fs"); } catch {}
const q = import("child_process").then((m: any) => m.execSync("id"), () => 0);
export default workload({ name: "import", params: {}, *main(t) {
  yield* t.getpid();
  t.report("survived", p !== null && q !== null ? 1 : 1, "");
} });
`,
  { oneOf: [{ error: /import/ }, { metric: { name: "survived", equals: 1 } }] },
);

// ---- the simulator ------------------------------------------------------------------------------

const API = {
  t: ["pid", "tid", "params", "fpu", "regs", "libc", "pthread", "rdtsc", "mhz", "compute", "getpid", "getppid", "gettimeofday", "sched_yield", "sched_setaffinity", "sched_getaffinity", "kill", "tkill", "sigqueue", "sigaction", "sigprocmask", "sigpending", "sigsuspend", "sigtimedwait", "sigaltstack", "pipe", "open", "read", "write", "close", "fcntl", "select", "mmap", "mprotect", "munmap", "fork", "clone", "wait", "waitpid", "ptrace", "exit", "nanosleep", "syscall", "store", "load", "setjmp", "longjmp", "report", "sample", "mark", "loopBegin", "loopEnd", "progress", "log"],
  h: ["sig", "info", "frame"],
  frame: ["kind", "address", "size", "sigcontext", "fpstate", "sigmask"],
  fpu: ["set", "get", "ops"],
  regs: ["set", "get"],
  libc: ["sseMemcpy", "sseThreshold", "memcpy", "gettimeofday"],
  pthread: ["library", "create", "join", "yield", "read", "write", "sigmask", "self"],
};

const noSimulator = G(
  "no-simulator-handles",
  "simulator",
  "t.kernel, t.task, t.gate, t.shared (and any name outside siglab.d.ts) are unreachable on t, h, frame, fpu, regs, libc, pthread and their prototypes",
  wl(`    const API = ${JSON.stringify(API)};
    const SECRET = ["kernel", "task", "gate", "shared", "k", "th", "collector", "runtime", "impl", "_th", "__th", "thread", "scheduler"];
    const names = (o: any): string[] => {
      const out: string[] = [];
      for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) for (const k of Reflect.ownKeys(p)) if (k !== "constructor") out.push(String(k));
      return out;
    };
    const check = (label: string, o: any, allowed: string[]) => {
      let secrets = 0;
      for (const s of SECRET) { try { if (o[s] !== undefined) secrets++; } catch {} }
      t.report(label + " secrets", secrets, "");
      const extra = names(o).filter((k) => !allowed.includes(k));
      t.report(label + " extra names", extra.length, "");
      if (extra.length) t.log(label + " extra: " + extra.join(", "));
      // every getter of the prototype chain, called on the object, gives only API values
      let odd = 0;
      for (let p = o; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
        for (const k of Reflect.ownKeys(p)) {
          const d = Object.getOwnPropertyDescriptor(p, k);
          if (d && d.get && !allowed.includes(String(k))) { try { if (d.get.call(o) !== undefined) odd++; } catch {} }
        }
      }
      t.report(label + " hidden getters", odd, "");
    };
    check("t", t, API.t);
    check("t.fpu", t.fpu, API.fpu);
    check("t.regs", t.regs, API.regs);
    check("t.libc", t.libc, API.libc);
    check("t.pthread", t.pthread, API.pthread);
    yield* t.fpu.set("st0", 1);
    yield* t.sigaction(SIGUSR1, function* (h: any) {
      check("h", h, [...API.t, ...API.h]);
      check("h.frame", h.frame, API.frame);
      t.report("h is not t", h === t ? 0 : 1, "");
    });
    yield* t.kill(t.pid, SIGUSR1);
    // a façade's constructor over a fake thread gives nothing either
    let fake = 1;
    try { const F: any = t.constructor; const f = new F({ getpid() { return 42; }, pid: 5 }); if (f.kernel !== undefined || f.task !== undefined) fake = 0; } catch {}
    t.report("constructor over a fake", fake, "");
`),
  {
    metrics: [
      ...["t", "t.fpu", "t.regs", "t.libc", "t.pthread", "h", "h.frame"].flatMap((l) => [
        { name: `${l} secrets`, equals: 0 },
        { name: `${l} extra names`, equals: 0 },
        { name: `${l} hidden getters`, equals: 0 },
      ]),
      { name: "h is not t", equals: 1 },
      { name: "constructor over a fake", equals: 1 },
    ],
  },
);

// ---- forging results ------------------------------------------------------------------------------

const POISON = `
function poison(): Record<string, number> {
  const out: Record<string, number> = {};
  const tryWrite = (name: string, f: () => void, check: () => boolean) => {
    try { f(); } catch {}
    let ok = 0;
    try { ok = check() ? 1 : 0; } catch { ok = 1; }
    out[name] = ok;
  };
  const O: any = Object.prototype, A: any = Array.prototype, F: any = Function.prototype;
  tryWrite("Object.prototype.toJSON", () => { O.toJSON = () => ({ forged: 1 }); }, () => O.toJSON === undefined);
  tryWrite("Object.prototype.totalCycles", () => { Object.defineProperty(O, "totalCycles", { value: 42, configurable: true }); }, () => O.totalCycles === undefined);
  tryWrite("Object.prototype.error", () => { O.error = { kind: "x", message: "forged" }; }, () => O.error === undefined);
  tryWrite("Array.prototype.push", () => { A.push = function () { return 0; }; }, () => [1].push(2) === 2);
  tryWrite("Array.prototype.map", () => { Object.defineProperty(A, "map", { value: () => [] }); }, () => [1].map((x: number) => x).length === 1);
  tryWrite("Object.keys", () => { (Object as any).keys = () => []; }, () => Object.keys({ a: 1 }).length === 1);
  tryWrite("JSON.stringify", () => { (JSON as any).stringify = () => "{}"; }, () => JSON.stringify({ a: 1 }) === '{"a":1}');
  tryWrite("Number.prototype.toJSON", () => { (Number.prototype as any).toJSON = () => 42; }, () => JSON.stringify(1) === "1");
  tryWrite("Map.prototype.set", () => { (Map.prototype as any).set = function () { return this; }; }, () => new Map([[1, 2]]).size === 1 && new Map().set(1, 1).size === 1);
  tryWrite("Symbol.iterator of arrays", () => { A[Symbol.iterator] = function* () {}; }, () => [...[1, 2]].length === 2);
  tryWrite("Function.prototype.call", () => { F.call = () => 0; }, () => typeof F.call === "function" && (function (this: any) { return 1; }).call(null) === 1);
  tryWrite("Math.floor", () => { (Math as any).floor = () => 0; }, () => Math.floor(2.5) === 2);
  tryWrite("Error.prototype.message", () => { (Error.prototype as any).message = "forged"; }, () => (Error.prototype as any).message === "");
  tryWrite("Promise.prototype.then", () => { (Promise.prototype as any).then = () => 0; }, () => typeof (Promise.prototype as any).then === "function" && Promise.prototype.then.length === 2);
  const gen = Object.getPrototypeOf(Object.getPrototypeOf((function* () {})()));
  tryWrite("%GeneratorPrototype%.next", () => { gen.next = () => ({ done: true, value: 0 }); }, () => gen.next.name === "next");
  tryWrite("Object.setPrototypeOf(Object.prototype)", () => { Object.setPrototypeOf(O, { forged: 1 }); }, () => Object.getPrototypeOf(O) === null);
  return out;
}
`;

const poisonNames = [
  "Object.prototype.toJSON", "Object.prototype.totalCycles", "Object.prototype.error", "Array.prototype.push", "Array.prototype.map", "Object.keys", "JSON.stringify",
  "Number.prototype.toJSON", "Map.prototype.set", "Symbol.iterator of arrays", "Function.prototype.call", "Math.floor", "Error.prototype.message", "Promise.prototype.then",
  "%GeneratorPrototype%.next", "Object.setPrototypeOf(Object.prototype)",
];

const forgeIntrinsics = G(
  "forge-poison-intrinsics",
  "forge",
  "poisoning shared intrinsics (toJSON, Array.prototype, JSON, Map, generator prototype, ...) at top level and in main has no effect",
  wl(
    `    const inMain = poison();
    for (const k of Object.keys(topPoison)) t.report("top " + k, topPoison[k]!, "");
    for (const k of Object.keys(inMain)) t.report("main " + k, inMain[k]!, "");
    yield* t.getpid();
`,
    `${POISON}\nconst topPoison = poison();\n`,
  ),
  { metrics: poisonNames.flatMap((n) => [{ name: `top ${n}`, equals: 1 }, { name: `main ${n}`, equals: 1 }]) },
  { crossRun: true },
);

const forgeFacades = G(
  "forge-poison-facades",
  "forge",
  "poisoning what t reaches (the façade prototypes, generator prototypes of the API, handler and frame prototypes, the siglab module) has no effect",
  wl(`    const tries: [string, () => void, () => boolean][] = [];
    const P: any = Object.getPrototypeOf(t);
    const realGetpid = P.getpid;
    tries.push(["ThreadFacade.prototype.getpid", () => { P.getpid = function () { return realGetpid.call(this); }; }, () => P.getpid === realGetpid]);
    tries.push(["ThreadFacade.prototype.rdtsc", () => { Object.defineProperty(P, "rdtsc", { value: () => 42 }); }, () => t.rdtsc() !== 42]);
    tries.push(["t.rdtsc own", () => { (t as any).rdtsc = () => 42; }, () => t.rdtsc() !== 42]);
    tries.push(["t.report own", () => { (t as any).report = () => 0; }, () => Object.getOwnPropertyNames(t).indexOf("report") < 0]);
    tries.push(["setPrototypeOf(t)", () => { Object.setPrototypeOf(t, {}); }, () => Object.getPrototypeOf(t) === P]);
    // what t.getpid() returns (a generator, or the runtime's quick-call iterator): its prototype's next stays the runtime's
    const gp: any = Object.getPrototypeOf(t.getpid());
    const realNext = gp.next;
    tries.push(["getpid generator prototype", () => { gp.next = () => ({ done: true, value: 42 }); }, () => gp.next === realNext && typeof realNext === "function"]);
    const fp: any = Object.getPrototypeOf(t.fpu);
    tries.push(["FpuFacade.prototype.set", () => { fp.set = function* () {}; }, () => fp.set.name === "set"]);
    tries.push(["siglab.workload", () => { (siglab as any).workload = () => 0; }, () => typeof siglab.workload === "function" && siglab.workload.name === "workload"]);
    tries.push(["siglab.SIGUSR1", () => { (siglab as any).SIGUSR1 = 12; }, () => siglab.SIGUSR1 === 10]);
    tries.push(["siglab.WIFEXITED", () => { (siglab.WIFEXITED as any).leak = 1; }, () => (siglab.WIFEXITED as any).leak === undefined]);
    tries.push(["t.params", () => { (t.params as any).n = 99; }, () => t.params.n === 1]);
    tries.push(["params", () => { params.n = 99; }, () => t.params.n === 1]);
    let frameTries: Record<string, number> = {};
    yield* t.fpu.set("st0", 2);
    yield* t.sigaction(SIGUSR1, function* (h: any) {
      const hp: any = Object.getPrototypeOf(Object.getPrototypeOf(h.frame));
      const fr: any = Object.getPrototypeOf(h.frame);
      const HP: any = Object.getPrototypeOf(h);
      const attempts: [string, () => void, () => boolean][] = [
        ["FrameView.prototype.sigcontext", () => { Object.defineProperty(fr, "sigcontext", { get: () => ({ forged: 1 }) }); }, () => h.frame.sigcontext.forged === undefined],
        ["FrameView prototype chain", () => { hp.kind = "forged"; }, () => hp.kind === undefined],
        ["HandlerFacade.prototype", () => { HP.sig = 99; }, () => h.sig === SIGUSR1],
        ["h.sig", () => { h.sig = 99; }, () => h.sig === SIGUSR1],
        ["sigcontext new field", () => { h.frame.sigcontext.forged = 1; }, () => h.frame.sigcontext.forged === undefined],
      ];
      for (const [name, f, ok] of attempts) { try { f(); } catch {} let v = 0; try { v = ok() ? 1 : 0; } catch { v = 1; } frameTries[name] = v; }
    });
    yield* t.kill(t.pid, SIGUSR1);
    for (const [name, f, ok] of tries) { try { f(); } catch {} let v = 0; try { v = ok() ? 1 : 0; } catch { v = 1; } t.report(name, v, ""); }
    for (const k of Object.keys(frameTries)) t.report(k, frameTries[k]!, "");
    for (let i = 0; i < 100; i++) yield* t.getpid();
`),
  {
    metrics: [
      "ThreadFacade.prototype.getpid", "ThreadFacade.prototype.rdtsc", "t.rdtsc own", "t.report own", "setPrototypeOf(t)", "getpid generator prototype", "FpuFacade.prototype.set",
      "siglab.workload", "siglab.SIGUSR1", "siglab.WIFEXITED", "t.params", "params", "FrameView.prototype.sigcontext", "FrameView prototype chain", "HandlerFacade.prototype", "h.sig", "sigcontext new field",
    ].map((name) => ({ name, equals: 1 })),
  },
  { crossRun: true },
);

const forgeInitialError = G(
  "forge-host-error-constructor",
  "forge",
  "the host's Error constructor behind a caught host error: prepareStackTrace / stackTraceLimit / captureStackTrace cannot be changed (they are shared by every later run)",
  wl(`    let e: any = null;
    try { for (;;) yield* t.getpid(); } catch (x) { e = x; }
    const HostError: any = e ? Object.getPrototypeOf(e.constructor) : null;
    const before = String(new Error("probe").stack).split("\\n").length;
    let pst = 1, stl = 1, cst = 1;
    try { HostError.prepareStackTrace = () => "POLLUTED"; } catch {}
    try { if (String(new Error("probe").stack).includes("POLLUTED")) pst = 0; } catch { pst = 0; }
    try { HostError.stackTraceLimit = 1; } catch {}
    try { if (String(new Error("probe").stack).split("\\n").length !== before && !String(new Error("probe").stack).includes("POLLUTED")) stl = 0; if (HostError.stackTraceLimit === 1) stl = 0; } catch {}
    try { HostError.captureStackTrace = () => {}; if (HostError.captureStackTrace.toString().length < 20) cst = 0; } catch {}
    t.report("caught a host error", e ? 1 : 0, "");
    t.report("prepareStackTrace unchanged", pst, "");
    t.report("stackTraceLimit unchanged", stl, "");
    t.report("captureStackTrace unchanged", cst, "");
`),
  {
    error: /step budget/,
    metrics: [
      { name: "caught a host error", equals: 1 },
      { name: "prepareStackTrace unchanged", equals: 1 },
      { name: "stackTraceLimit unchanged", equals: 1 },
      { name: "captureStackTrace unchanged", equals: 1 },
    ],
  },
  { crossRun: true, budget: { maxSteps: 2_000 } },
);

const stackPaths = G(
  "stack-host-paths",
  "host-global",
  "error stacks do not disclose the host's file system (the install path, the user's home folder)",
  wl(`    let e: any = null;
    try { yield* t.kill("x", 1); } catch (x) { e = x; }
    const s = String(e && e.stack) + "\\n" + String(new Error("mine").stack);
    t.report("no host paths in stacks", /(file:\\/\\/|\\/home\\/|\\/Users\\/|\\/root\\/|node_modules|siglab-host|[A-Z]:\\\\)/.test(s) ? 0 : 1, "");
`),
  { metric: { name: "no host paths in stacks", equals: 1 } },
);

// ---- nondeterminism ---------------------------------------------------------------------------------

const dateNow = G(
  "date-now-refused",
  "nondeterminism",
  "Date.now(), new Date(), Date(), performance.now(), Temporal.Now give no host time (refused or NaN), at the top level and in main",
  wl(
    `    const inMain = probeDate();
    for (const k of Object.keys(topDate)) t.report("top " + k, topDate[k]!, "");
    for (const k of Object.keys(inMain)) t.report("main " + k, inMain[k]!, "");
    yield* t.getpid();
`,
    `function probeDate(): Record<string, number> {
  const noTime = (f: () => unknown) => { try { const v: any = f(); if (typeof v === "number") return Number.isNaN(v) ? 1 : 0; if (v instanceof Date) return Number.isNaN(v.getTime()) ? 1 : 0; if (typeof v === "string") return /\\d{4}/.test(v) && !/Invalid/.test(v) ? 0 : 1; return 1; } catch { return 1; } };
  return {
    "Date.now": noTime(() => Date.now()),
    "new Date": noTime(() => new Date()),
    "Date()": noTime(() => (Date as any)()),
    "performance.now": noTime(() => (globalThis as any).performance.now()),
    "Temporal.Now": noTime(() => (globalThis as any).Temporal.Now.instant().epochMilliseconds),
    "new Date(0) works": new Date(0).getTime() === 0 ? 1 : 0,
  };
}
const topDate = probeDate();
`,
  ),
  { metrics: ["Date.now", "new Date", "Date()", "performance.now", "Temporal.Now", "new Date(0) works"].flatMap((n) => [{ name: `top ${n}`, equals: 1 }, { name: `main ${n}`, equals: 1 }]) },
);

const mathRandom = G(
  "math-random-seeded",
  "nondeterminism",
  "Math.random is deterministic per seed: the same seed gives the same values, different seeds different ones",
  wl(
    `    let v = 0;
    for (let i = 0; i < 4; i++) v = v * 1000 + Math.floor(Math.random() * 1000);
    t.report("random", v, "");
    t.report("top random", top, "");
    yield* t.getpid();
`,
    `const top = Math.floor(Math.random() * 1e9);\n`,
  ),
  { seeds: { metric: "random", same: [7, 7], different: [7, 8] } },
);

const mathRandomTop = G(
  "math-random-seeded-top-level",
  "nondeterminism",
  "Math.random at the top level of the module is seeded as well",
  mathRandom.source,
  { seeds: { metric: "top random", same: [123, 123], different: [0, 4294967295] } },
);

// ---- stepping a simulated call out of turn ----------------------------------------------------------

const OUT_OF_TURN = /out of turn|while task|stepped|after the run ended/;

const UTHREAD_ABANDONED_YIELD = wl(`    const b = yield* t.pthread.create(function* (t2: any) {
      const g = t2.pthread.yield();
      g.next(); // the library has switched this thread out; the workload keeps running it anyway
      for (let i = 0; i < 3; i++) yield* t2.pthread.yield();
      return 0;
    });
    for (let i = 0; i < 3; i++) yield* t.pthread.yield();
    yield* t.pthread.join(b);
    t.report("numbers", 1, "");
`);

const outOfTurn: AttackCase[] = [
  G(
    "oot-other-thread-steps-generator",
    "out-of-turn",
    "thread B steps a simulated call that thread A created (clone)",
    wl(`    const g = t.getpid();
    yield* t.clone(function* (t2: any) { g.next(); yield* t2.getpid(); return 0; });
    yield* t.nanosleep(2_000_000);
    yield* t.nanosleep(2_000_000);
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-pthread-steps-suspended",
    "out-of-turn",
    "thread B resumes a simulated call of thread A that is suspended inside the kernel (pthread)",
    wl(`    let g: any = null;
    const b = yield* t.pthread.create(function* (t2: any) {
      yield* t2.nanosleep(1_000_000);
      if (g) { g.next(); g.next(); }
      return 0;
    });
    g = t.nanosleep(5_000_000);
    g.next(); // A is now switched out inside schedule(); its generator is in the workload's hands
    yield* t.pthread.join(b);
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-return-into-suspended",
    "out-of-turn",
    ".return() into a host generator suspended in the kernel",
    wl(`    yield* t.clone(function* (t2: any) { for (let i = 0; i < 50; i++) yield* t2.sched_yield(); return 0; });
    const g = t.sched_yield();
    g.next();
    g.return(0);
    yield* t.getpid();
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-throw-into-suspended",
    "out-of-turn",
    ".throw() into a host generator suspended in the kernel",
    wl(`    yield* t.clone(function* (t2: any) { for (let i = 0; i < 50; i++) yield* t2.sched_yield(); return 0; });
    const g = t.sched_yield();
    g.next();
    try { g.throw(new Error("injected")); } catch {}
    yield* t.getpid();
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-manual-drain",
    "out-of-turn",
    "a simulated call stepped to completion by hand (its switch intercepted)",
    wl(`    yield* t.clone(function* (t2: any) { for (let i = 0; i < 50; i++) yield* t2.sched_yield(); return 0; });
    const g = t.sched_yield();
    let n = 0;
    try { while (!g.next().done && n < 100) n++; } catch {}
    for (let i = 0; i < 10; i++) yield* t.getpid();
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-handler-steps-interrupted",
    "out-of-turn",
    "a signal handler resumes the main program's suspended simulated call",
    wl(`    let g: any = null;
    yield* t.sigaction(SIGUSR1, function* (h: any) { if (g) g.next(); });
    yield* t.clone(function* (t2: any) { yield* t2.kill(1, SIGUSR1); return 0; });
    g = t.nanosleep(10_000_000);
    g.next();
    yield* t.nanosleep(10_000_000);
    t.report("numbers", 1, "");
`),
    { error: OUT_OF_TURN, kind: "workload" },
  ),
  G(
    "oot-after-exit",
    "out-of-turn",
    "a thread keeps calling the API after exit() (catching the exit)",
    wl(`    yield* t.clone(function* (t2: any) {
      try { yield* t2.exit(0); } catch {}
      for (let i = 0; i < 1000; i++) yield* t2.getpid();
      return 0;
    });
    yield* t.nanosleep(5_000_000);
    t.report("numbers", 1, "");
`),
    { oneOf: [{ error: /./, kind: "workload" }, { error: /./, kind: "internal" }, { metric: { name: "numbers", equals: 1 } }] },
  ),
  G(
    "oot-uthread-abandoned-yield",
    "out-of-turn",
    "NGPT: a user-level thread steps its own pthread.yield() by hand (intercepting the switch) and runs on",
    UTHREAD_ABANDONED_YIELD,
    { error: OUT_OF_TURN, kind: "workload" },
    { variants: [{ id: "ngpt" }] },
  ),
  G(
    "oot-uthread-abandoned-yield-libc-r",
    "out-of-turn",
    "libc_r: a user-level thread steps its own pthread.yield() by hand and runs on",
    UTHREAD_ABANDONED_YIELD,
    { error: OUT_OF_TURN, kind: "workload" },
    { variants: [{ id: "libc-r" }] },
  ),
  G(
    "oot-uthread-park-token",
    "out-of-turn",
    "NGPT: a thread replays the library's park token (taken from a hand-stepped pthread.yield) from another thread",
    wl(`    let tok: any;
    const b = yield* t.pthread.create(function* (t2: any) { tok = t2.pthread.yield().next().value; return 0; });
    const c = yield* t.pthread.create(function* () { yield tok; yield tok; return 0; });
    yield* t.pthread.join(c);
    yield* t.pthread.join(b);
    t.report("numbers", 1, "");
`),
    { error: /./ },
    { variants: [{ id: "ngpt" }] },
  ),
];

// ---- the signal frame ---------------------------------------------------------------------------------

const frameWrite = (id: string, title: string, write: string, msg: RegExp): AttackCase =>
  G(
    id,
    "frame",
    title,
    wl(`    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.fpu.set("st0", 1.25);
    yield* t.sigaction(SIGUSR1, function* (h: any) {
      ${write};
    });
    yield* t.kill(t.pid, SIGUSR1);
    t.report("numbers", 1, "");
`),
    { error: msg },
  );

const frameCases: AttackCase[] = [
  frameWrite("frame-eax-string", "a handler writes a string into h.frame.sigcontext.eax", `h.frame.sigcontext.eax = "0x41"`, /sigcontext\.eax.*expected a number/),
  frameWrite("frame-eip-object", "a handler writes an object with valueOf into h.frame.sigcontext.eip", `h.frame.sigcontext.eip = { valueOf() { return 0x8049000; } }`, /sigcontext\.eip.*expected a number/),
  frameWrite("frame-st0-object", "a handler writes a non-number into h.frame.fpstate.st[0]", `h.frame.fpstate.st[0] = { valueOf() { return 1; } }`, /fpstate\.st\[0\].*expected a number/),
  frameWrite("frame-xmm-string", "a handler writes a string into h.frame.fpstate.xmm[0][0]", `h.frame.fpstate.xmm[0][0] = "1"`, /fpstate\.xmm\[0\]\[0\].*expected a number/),
  frameWrite("frame-st-length", "a handler grows h.frame.fpstate.st", `h.frame.fpstate.st[100] = 1`, /fpstate\.st.*only elements/),
  frameWrite("frame-sigmask-strings", "a handler sets h.frame.sigmask to strings", `h.frame.sigmask = ["10"]`, /sigmask.*expected a number/),
  G(
    "frame-structure-locked",
    "frame",
    "the frame's views cannot be redefined, extended or re-prototyped",
    wl(`    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    yield* t.sigaction(SIGUSR1, function* (h: any) {
      const fp = h.frame.fpstate, sc = h.frame.sigcontext;
      t.report("defineProperty st", throws(() => Object.defineProperty(fp.st, 0, { get() { return 1; } })), "");
      t.report("delete st[0]", throws(() => { delete fp.st[0]; }), "");
      t.report("setPrototypeOf st", throws(() => Object.setPrototypeOf(fp.st, null)) | (Object.getPrototypeOf(fp.st) === Array.prototype ? 1 : 0), "");
      t.report("st.length", throws(() => { fp.st.length = 0; }), "");
      t.report("replace st", throws(() => { fp.st = [1]; }), "");
      t.report("redefine eax", throws(() => Object.defineProperty(sc, "eax", { value: "x" })), "");
      t.report("replace sigcontext", throws(() => { h.frame.sigcontext = { eax: 1 }; }), "");
      t.report("xmm push", throws(() => fp.xmm.push([1])), "");
    });
    yield* t.kill(t.pid, SIGUSR1);
`),
    { metrics: ["defineProperty st", "delete st[0]", "setPrototypeOf st", "st.length", "replace st", "redefine eax", "replace sigcontext", "xmm push"].map((name) => ({ name, equals: 1 })) },
  ),
];

// ---- thrown proxies -------------------------------------------------------------------------------------

const EVIL_PROXY = `new Proxy(function () {}, {
  get() { throw new Error("trap get"); }, getOwnPropertyDescriptor() { throw new Error("trap gopd"); }, getPrototypeOf() { throw new Error("trap proto"); },
  has() { throw new Error("trap has"); }, ownKeys() { throw new Error("trap keys"); }, apply() { throw new Error("trap apply"); }, construct() { throw new Error("trap construct"); },
  set() { throw new Error("trap set"); }, defineProperty() { throw new Error("trap define"); }, isExtensible() { throw new Error("trap ext"); },
})`;

const proxyCases: AttackCase[] = [
  G("proxy-thrown-main", "proxy", "main throws a Proxy whose every trap throws", wl(`    yield* t.getpid();\n    throw ${EVIL_PROXY};\n`), { error: /threw/, kind: "workload" }),
  G("proxy-thrown-top-level", "proxy", "the module's top level throws a Proxy whose every trap throws", wl(`    yield* t.getpid();\n`, `throw ${EVIL_PROXY};\n`), { error: /threw/ }),
  G(
    "proxy-thrown-handler",
    "proxy",
    "a signal handler throws a Proxy whose every trap throws",
    wl(`    yield* t.sigaction(SIGUSR1, function* () { throw ${EVIL_PROXY}; });\n    yield* t.kill(t.pid, SIGUSR1);\n`),
    { error: /threw/, kind: "workload" },
  ),
  G(
    "proxy-as-arguments",
    "proxy",
    "throwing Proxies passed as arguments, as the definition and as params are refused cleanly",
    wl(`    const p: any = ${EVIL_PROXY};
    const arr: any = new Proxy([1, 2], { get() { throw new Error("trap get"); } });
    let clean = 0;
    for (const f of [() => t.kill(p, 1), () => t.sigprocmask(0, arr), () => t.fpu.set("xmm0", arr), () => t.report(p, 1, ""), () => t.mark(p), () => t.syscall(20, p), () => t.pthread.join(p), () => t.sigaction(SIGUSR1, p)]) {
      try { const g: any = f(); if (g && typeof g.next === "function") yield* g; } catch (e) { clean++; }
    }
    t.report("refused", clean, "");
    t.log(p);
`),
    { oneOf: [{ metric: { name: "refused", equals: 8 } }, { error: /trap|threw|log/ }] },
  ),
  G("proxy-definition", "proxy", "the default export is a Proxy whose every trap throws", `import { workload } from "siglab";\nexport default ${EVIL_PROXY};\n`, { error: /./ }),
  G(
    "throw-getter-error",
    "proxy",
    "a thrown object whose message is a looping getter and whose toString loops",
    wl(`    yield* t.getpid();\n    throw { get message() { for (;;) {} }, toString() { for (;;) {} } };\n`),
    { error: /threw/, kind: "workload" },
  ),
];

// ---- output bombs -----------------------------------------------------------------------------------------

const outputCases: AttackCase[] = [
  G("output-20000-report-names", "output", "20,000 distinct report names", wl(`    for (let i = 0; i < 20000; i++) t.report("m" + i, i, "x");\n`), { error: /output budget|10,?000/ }, { maxResultChars: 2_000_000 }),
  G("output-20000-sample-names", "output", "20,000 distinct sample names", wl(`    for (let i = 0; i < 20000; i++) t.sample("s" + i, i);\n`), { error: /output budget|10,?000/ }, { maxResultChars: 2_000_000 }),
  G("output-many-samples", "output", "10 million samples of one metric stay bounded", wl(`    for (let i = 0; i < 10_000_000; i++) t.sample("s", i);\n    t.report("done", 1, "");\n`), { metric: { name: "done", equals: 1 } }, { maxResultChars: 500_000 }),
  G(
    "output-sample-volume",
    "output",
    "300 sample names x 10,000 samples each: within the name and per-metric sample limits, but 3 million numbers (3,000 names abort the host process)",
    wl(`    yield* t.getpid();\n    for (let n = 0; n < 300; n++) { const name = "s" + n; for (let i = 0; i < 10000; i++) t.sample(name, i + 0.5); }\n    t.report("done", 1, "");\n`),
    { oneOf: [{ error: /output budget|memory budget/, kind: "budget" }, { metric: { name: "done", equals: 1 } }] },
    // the documented budgets (10,000 metrics, 200-character names, 1,000 log lines of 2,000 characters) fit in a few MB
    { maxResultChars: 10_000_000, slow: true },
  ),
  G("output-long-report-name", "output", "a 10,000-character report name", wl(`    t.report("x".repeat(10000), 1, "cycles");\n`), { error: /200 characters|output budget/ }, { maxResultChars: 20_000 }),
  G("output-long-unit", "output", "a 10,000-character unit", wl(`    t.report("u", 1, "x".repeat(10000));\n`), { error: /characters|output budget/ }, { maxResultChars: 20_000 }),
  G("output-long-mark", "output", "a 10,000-character mark label", wl(`    t.mark("x".repeat(10000));\n`), { error: /characters/ }, { maxResultChars: 20_000 }),
  G(
    "output-giant-log-line",
    "output",
    "a gigantic log line (50 million characters), 100,000 log lines, and a huge object logged",
    wl(`    t.log("x".repeat(50_000_000));
    for (let i = 0; i < 100_000; i++) t.log("line " + i);
    t.log(new Array(1_000_000).fill(7));
    t.report("done", 1, "");
`),
    { metric: { name: "done", equals: 1 } },
    { maxResultChars: 3_000_000 },
  ),
  G("output-giant-error-message", "output", "an error with a 20-million-character message", wl(`    yield* t.getpid();\n    throw new Error("E".repeat(20_000_000));\n`), { error: /EEEE/ }, { maxResultChars: 50_000 }),
  G(
    "output-giant-definition",
    "output",
    "a workload name of 10,000 characters, 1,000 parameters",
    `import { workload } from "siglab";\nconst params: any = {};\nfor (let i = 0; i < 1000; i++) params["p" + i] = i;\nexport default workload({ name: "n".repeat(10000), params, *main(t) { yield* t.getpid(); } });\n`,
    { error: /at most|too long|characters/ },
    { maxResultChars: 20_000 },
  ),
];

// ---- runaways ----------------------------------------------------------------------------------------------

const runawayCases: AttackCase[] = [
  G("runaway-top-level", "runaway", "for(;;){} at the module's top level (the module budget stops it)", wl(`    yield* t.getpid();\n`, `for (;;) {}\n`), { error: /module evaluation stopped|top level/, kind: "budget" }, { slow: true }),
  G("runaway-main", "runaway", "for(;;){} in main without yielding (the run's host-time budget stops it)", wl(`    yield* t.getpid();\n    for (;;) {}\n`), { error: /host time|stopped after/, kind: "budget" }, { budget: { maxHostMs: 1500 }, slow: true }),
  G("runaway-handler", "runaway", "for(;;){} in a signal handler", wl(`    yield* t.sigaction(SIGUSR1, function* () { for (;;) {} });\n    yield* t.kill(t.pid, SIGUSR1);\n`), { error: /host time|stopped after/, kind: "budget" }, { budget: { maxHostMs: 1500 }, slow: true }),
  G(
    "runaway-catch-step-budget",
    "runaway",
    "a workload that catches the step-budget error in a loop and goes on",
    wl(`    for (;;) { try { yield* t.getpid(); } catch (e) {} }\n`),
    { error: /budget/, kind: "budget" },
    { budget: { maxHostMs: 1500, maxSteps: 1000 }, slow: true },
  ),
  G("runaway-yield-garbage", "runaway", "main yields its own values forever (no simulated call, no step)", wl(`    for (;;) yield 0 as any;\n`), { error: /budget|host time|yield/ }, { budget: { maxHostMs: 1500 }, slow: true }),
  G(
    "runaway-cycle-budget",
    "runaway",
    "simulated work beyond the cycle budget",
    wl(`    for (;;) yield* t.compute(1e9);\n`),
    { error: /cycle budget/, kind: "budget" },
    { budget: { maxCycles: 1e10 } },
  ),
  G(
    "runaway-microtask-after-run",
    "runaway",
    "a promise job that loops forever after the run reported (must not hang or break the next run)",
    wl(`    yield* t.getpid();\n    Promise.resolve().then(() => { for (;;) {} });\n    t.report("reported", 1, "");\n`, `(async () => { for (;;) await null; })();\n`),
    { oneOf: [{ metric: { name: "reported", equals: 1 } }, { error: /budget|host time/ }] },
    // the loop holds the run until its host-time budget fires: 1.5 s as for the other runaways
    // (the runner's 20 s local limit would only make the case slow)
    { crossRun: true, slow: true, budget: { maxHostMs: 1500 } },
  ),
];

// ---- memory bombs ----------------------------------------------------------------------------------------

const MEMORY = /memory budget/;

const memoryCases: AttackCase[] = [
  G(
    "memory-heap-growth-main",
    "memory",
    "heap growth in main until the limit (a clean one-line memory-budget error)",
    wl(`    const keep: unknown[] = [];\n    for (;;) { keep.push(new Array(100_000).fill(keep.length)); if (keep.length % 64 === 0) yield* t.getpid(); }\n`),
    // near the heap limit V8's last-resort collections are slow: on a loaded machine the run's
    // host-time budget may fire first; either is a clean one-line stop
    { oneOf: [{ error: MEMORY, kind: "budget" }, { error: /stopped after \d+ s of host time/, kind: "budget" }] },
    { slow: true },
  ),
  G(
    "memory-heap-growth-top-level",
    "memory",
    "heap growth at the module's top level",
    wl(`    yield* t.getpid();\n`, `const keep: unknown[] = [];\nfor (;;) keep.push(new Array(1_000_000).fill(keep.length));\n`),
    // the module's host-time budget may come first on a slow machine: either is a clean stop
    { oneOf: [{ error: MEMORY, kind: "budget" }, { error: /module evaluation stopped/, kind: "budget" }] },
    { slow: true },
  ),
  G(
    "memory-arraybuffer-5gib",
    "memory",
    "a 5 GiB ArrayBuffer, then filling it",
    wl(`    let b: ArrayBuffer | null = null;
    try { b = new ArrayBuffer(5 * 2 ** 30); } catch { t.report("allocation refused", 1, ""); return; }
    yield* t.getpid();
    // typed arrays are limited to 4 GiB: fill it through 1 GiB views
    for (let off = 0; off < 5 * 2 ** 30; off += 2 ** 30) { new Uint8Array(b, off, 2 ** 30).fill(1); yield* t.getpid(); }
    t.report("filled 5 GiB", 1, "");
`),
    { oneOf: [{ error: MEMORY, kind: "budget" }, { metric: { name: "allocation refused", equals: 1 } }] },
    { slow: true },
  ),
  G(
    "memory-arraybuffer-5gib-held",
    "memory",
    "a 5 GiB ArrayBuffer held (never touched) while the workload goes on simulating",
    wl(`    let b: ArrayBuffer | null = null;
    try { b = new ArrayBuffer(5 * 2 ** 30); } catch { t.report("allocation refused", 1, ""); return; }
    for (let i = 0; i < 100_000; i++) yield* t.getpid();
    t.report("held 5 GiB", b.byteLength > 0 ? 1 : 0, "");
`),
    { oneOf: [{ error: MEMORY, kind: "budget" }, { metric: { name: "allocation refused", equals: 1 } }] },
    { slow: true },
  ),
  G(
    "memory-arraybuffers-between-steps",
    "memory",
    "256 MiB ArrayBuffers allocated and touched between simulated calls",
    wl(`    const keep: Uint8Array[] = [];
    for (let i = 0; i < 64; i++) { const a = new Uint8Array(256 * 2 ** 20); a.fill(1); keep.push(a); yield* t.getpid(); }
    t.report("held 16 GiB", 1, "");
`),
    { oneOf: [{ error: MEMORY, kind: "budget" }, { error: /allocation failed|Array buffer/ }] },
    { slow: true },
  ),
  G("memory-string-doubling", "memory", "a string doubled until the engine refuses it", wl(`    let s = "x";\n    for (;;) { s += s; yield* t.getpid(); }\n`), { oneOf: [{ error: /Invalid string length|memory budget/ }] }, { slow: true }),
];

// ---------------------------------------------------------------------------------------------

/** The attack corpus, in a stable order. */
export const CORPUS: readonly AttackCase[] = [
  ...CHAINS.map(chainCase),
  walkCase,
  hostGlobals,
  requireNode,
  hostFiles,
  nestedCompartment,
  stackPaths,
  dynamicImportEval,
  dynamicImportSource,
  noSimulator,
  forgeIntrinsics,
  forgeFacades,
  forgeInitialError,
  dateNow,
  mathRandom,
  mathRandomTop,
  ...outOfTurn,
  ...frameCases,
  ...proxyCases,
  ...outputCases,
  ...runawayCases,
  ...memoryCases,
];

/**
 * A clean workload whose result is sensitive to every shared channel the corpus attacks (intrinsics,
 * error stacks, Math.random, façade prototypes, the signal path). Run after a polluting case, its
 * result must be byte-identical to the same run in a fresh host.
 */
export const REFERENCE_WORKLOAD = `import { workload, SIGUSR1 } from "siglab";
export default workload({
  name: "reference",
  params: { iterations: 50 },
  *main(t, { iterations }) {
    yield* t.fpu.set("xmm0", [1, 2, 3, 4]);
    let handled = 0;
    yield* t.sigaction(SIGUSR1, function* (h) { handled++; h.frame.sigcontext.ebx = 7; });
    const start = t.rdtsc();
    for (let i = 0; i < iterations; i++) { yield* t.kill(t.pid, SIGUSR1); yield* t.getpid(); }
    t.report("round trip", (t.rdtsc() - start) / iterations, "cycles");
    t.report("handled", handled, "signals");
    t.report("random", Math.floor(Math.random() * 1e9), "");
    const e = new Error("reference");
    const stack = String(e.stack);
    t.report("stack first line ok", stack.split("\\n")[0] === "Error: reference" ? 1 : 0, "");
    t.report("stack lines", Math.min(stack.split("\\n").length, 99), "");
    t.report("json", JSON.stringify({ a: [1, 2], b: { c: 3 } }).length, "");
    t.report("keys", Object.keys({ a: 1, b: 2 }).length + [1, 2, 3].map((x) => x * 2).length, "");
    t.report("proto names", Object.getOwnPropertyNames(Object.prototype).length + Object.getOwnPropertyNames(Array.prototype).length, "");
    t.report("t names", Object.getOwnPropertyNames(Object.getPrototypeOf(t)).length, "");
    const tv = yield* t.gettimeofday();
    t.report("gettimeofday", tv.sec * 1e6 + tv.usec, "us");
    t.log("reference done", { handled });
  },
});
`;

// ---------------------------------------------------------------------------------------------
// checking a result

function metricValue(r: RunResultLike, name: string): number | undefined {
  return r.metrics.find((m) => m.name === name)?.value;
}

/** What is wrong with `r` for expectation `e` (empty: it meets it). Seeds are checked by `checkSeeds`. */
export function checkExpectation(e: Expectation, r: RunResultLike, resultJson?: string): string[] {
  const problems: string[] = [];
  if (e.oneOf) {
    const each = e.oneOf.map((x) => checkExpectation(x, r, resultJson));
    if (!each.some((p) => p.length === 0)) problems.push(`none of the allowed outcomes: ${each.map((p) => p.join("; ")).join(" || ")}`);
    return problems;
  }
  const err = r.error;
  if (e.error) {
    if (!err) problems.push(`expected the run to fail (${e.error}), but it succeeded with metrics ${JSON.stringify(r.metrics.slice(0, 8))}`);
    else {
      if (!e.error.test(err.message)) problems.push(`error message does not match ${e.error}: ${JSON.stringify(err.message.slice(0, 400))}`);
      if (e.kind && err.kind !== e.kind) problems.push(`error kind is '${err.kind}', expected '${e.kind}' (${JSON.stringify(err.message.slice(0, 200))})`);
    }
  } else if (err) problems.push(`the run failed: [${err.kind}] ${err.message.slice(0, 400)}`);
  for (const m of [...(e.metric ? [e.metric] : []), ...(e.metrics ?? [])]) {
    const v = metricValue(r, m.name);
    if (v !== m.equals) problems.push(`metric '${m.name}' is ${v === undefined ? "missing" : v}, expected ${m.equals}`);
  }
  return problems;
}

/** Generic rules for every error: one line, no raw engine stack trace. */
export function checkErrorShape(r: RunResultLike): string[] {
  const m = r.error?.message;
  if (m === undefined) return [];
  const out: string[] = [];
  if (/\n/.test(m)) out.push(`the error message is not one line: ${JSON.stringify(m.slice(0, 300))}`);
  if (/^\s+at /m.test(m) || /\bat .*\.(m?js|ts):\d+:\d+\)/.test(m)) out.push(`the error message carries a stack trace: ${JSON.stringify(m.slice(0, 300))}`);
  return out;
}

/** All problems of one run of case `c` (expectation + error shape + result size). */
export function checkResult(c: AttackCase, r: RunResultLike, resultJson: string): string[] {
  const out = [...checkExpectation(c.expect, r, resultJson), ...checkErrorShape(r)];
  if (c.maxResultChars !== undefined && resultJson.length > c.maxResultChars) out.push(`the result has ${resultJson.length} characters (at most ${c.maxResultChars})`);
  return out;
}

/** For a `seeds` expectation: values of the metric under the four seeds (same[0], same[1], different[0], different[1]). */
export function checkSeeds(e: NonNullable<Expectation["seeds"]>, values: (number | undefined)[]): string[] {
  const [a, b, c, d] = values;
  const out: string[] = [];
  if (values.some((v) => v === undefined)) out.push(`metric '${e.metric}' missing in some runs: ${JSON.stringify(values)}`);
  if (a !== b) out.push(`seed ${e.same[0]} twice gave different values of '${e.metric}': ${a} vs ${b}`);
  if (c === d) out.push(`seeds ${e.different[0]} and ${e.different[1]} gave the same value of '${e.metric}': ${c}`);
  return out;
}
