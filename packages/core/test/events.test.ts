import { describe, expect, it } from "vitest";
import { EV, KernelEvents } from "../src/kernel/events.js";
import type { Task } from "../src/kernel/task.js";

// KernelEvents keeps the map's events in a fixed-shape object (hot emits are property loads); a
// plugin may still subscribe to any name, including ones an object inherits.
describe("KernelEvents", () => {
  it("calls the listeners of a map event in order, with its arguments", () => {
    const ev = new KernelEvents();
    const got: unknown[] = [];
    expect(ev.has("signal.queued")).toBe(false);
    ev.on("signal.queued", (t, sig, queued) => got.push(["a", t, sig, queued]));
    ev.on("signal.queued", (_t, sig) => got.push(["b", sig]));
    expect(ev.has("signal.queued")).toBe(true);
    expect(ev.has("signal.deliver")).toBe(false);
    ev.emit("signal.queued", undefined, 10, true);
    expect(got).toEqual([["a", undefined, 10, true], ["b", 10]]);
  });

  it("numbers every event of the map once (EV), and a core fire() reaches what on() subscribed by name", () => {
    const names = Object.keys(EV);
    // every name a plugin can subscribe to through the map has its number, and no two share one
    expect(new Set(Object.values(EV)).size).toBe(names.length);
    const ev = new KernelEvents();
    const heard: string[] = [];
    for (const name of names) ev.on(name as never, ((a: unknown) => heard.push(`${name}:${String(a)}`)) as never);
    for (const name of names) {
      const id = EV[name as keyof typeof EV];
      expect(ev.hasListeners(id)).toBe(true);
      expect(ev.has(name as never)).toBe(true);
      ev.fire(id as never, name as never);
    }
    expect(heard).toEqual(names.map((n) => `${n}:${n}`));
    // and the map's names are EV's: a Listeners field without a number would be missed here
    const lists = (new KernelEvents() as unknown as { lists: object }).lists;
    expect(Object.keys(lists).sort()).toEqual([...names].sort());
  });

  it("keeps names outside the map apart, inherited ones included, without touching the map's", () => {
    const ev = new KernelEvents() as unknown as { on(n: string, h: (...a: unknown[]) => void): void; emit(n: string, a?: unknown): void; has(n: string): boolean };
    const got: string[] = [];
    for (const name of ["__proto__", "toString", "constructor", "hasOwnProperty", "my.plugin.event"]) {
      expect(ev.has(name)).toBe(false);
      ev.emit(name, 1); // nothing subscribed: no call, no throw
      ev.on(name, (a) => got.push(`${name}:${String(a)}`));
      expect(ev.has(name)).toBe(true);
      ev.emit(name, 2);
    }
    expect(got).toEqual(["__proto__:2", "toString:2", "constructor:2", "hasOwnProperty:2", "my.plugin.event:2"]);
    expect(Object.prototype.toString.call({})).toBe("[object Object]"); // the prototype was not written
    expect(ev.has("tick")).toBe(false);
  });

  it("skips a return.user its guarded listeners cannot act on, unless a listener without a guard is there", () => {
    const ev = new KernelEvents();
    const got: string[] = [];
    ev.onOwnGuarded("return.user", (_t, into) => got.push(`guarded:${into}`));
    const t = { sigreturnRegsPending: false, sigpending: false, needResched: false, delayedSince: -1 } as Task;
    ev.fireReturn(t, false); // nothing to act on: no call
    expect(got).toEqual([]);
    t.sigreturnRegsPending = true; // registers sigreturn restored (the transparency checker's)
    ev.fireReturn(t, true);
    t.sigreturnRegsPending = false;
    t.sigpending = true; // work pending (the delayed-work checker's), not into a handler
    ev.fireReturn(t, true);
    ev.fireReturn(t, false);
    t.delayedSince = 5; // a delay already being timed
    ev.fireReturn(t, false);
    expect(got).toEqual(["guarded:true", "guarded:false"]);
    // a plugin's listener hears every return, and the guarded ones then run too, in order
    ev.on("return.user", (_t, into) => got.push(`plugin:${into}`));
    got.length = 0;
    t.sigpending = false;
    ev.fireReturn(t, false);
    expect(got).toEqual(["guarded:false", "plugin:false"]);
  });
});
