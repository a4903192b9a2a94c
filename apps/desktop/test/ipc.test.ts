import { describe, expect, it, vi } from "vitest";
import { electronMockFactory, electronState } from "./electron-mock.js";

vi.mock("electron", () => electronMockFactory());

const { createIpcDispatcher, isTrustedSender, registerIpc } = await import("../src/main/ipc.js");
const { IPC_CALL_CHANNEL } = await import("../src/common/host-api.js");
import type { HostHandlers } from "../src/node/host-service.js";

function event(url: string, opts: { sub?: boolean; noFrame?: boolean } = {}) {
  const mainFrame = { url, parent: null };
  const frame = opts.sub ? { url, parent: mainFrame } : mainFrame;
  return { senderFrame: opts.noFrame ? null : frame, sender: { mainFrame } } as never;
}

const calls: unknown[][] = [];
const handlers = new Proxy({}, {
  get: (_t, method: string) => async (...args: unknown[]) => {
    calls.push([method, ...args]);
    return `ok:${method}`;
  },
}) as HostHandlers;

describe("IPC validation", () => {
  const dispatch = createIpcDispatcher(handlers);

  it("accepts a well-formed call from the app's main frame", async () => {
    await expect(dispatch(event("siglab://app/index.html"), "saveWorkload", ["a.ts", "src"])).resolves.toBe("ok:saveWorkload");
    expect(calls.at(-1)).toEqual(["saveWorkload", "a.ts", "src"]);
  });

  it("refuses foreign senders: other origins, file://, sub-frames, destroyed frames", async () => {
    for (const ev of [event("https://evil.example/"), event("file:///tmp/x.html"), event("siglab://other/index.html"), event("siglab://app/index.html", { sub: true }), event("siglab://app/", { noFrame: true })]) {
      await expect(dispatch(ev, "listWorkloads", [])).rejects.toThrow(/untrusted frame/);
    }
    expect(isTrustedSender(event("siglab://app/index.html"))).toBe(true);
  });

  it("refuses unknown channels (methods) and inherited property names", async () => {
    const before = calls.length;
    await expect(dispatch(event("siglab://app/"), "deleteEverything", [])).rejects.toThrow(/unknown host method/);
    await expect(dispatch(event("siglab://app/"), "constructor", [])).rejects.toThrow(/unknown host method/);
    await expect(dispatch(event("siglab://app/"), "__proto__", [])).rejects.toThrow(/unknown host method/);
    await expect(dispatch(event("siglab://app/"), 42, [])).rejects.toThrow(/unknown host method/);
    expect(calls.length).toBe(before);
  });

  it("refuses arguments of the wrong shape or count, naming the method", async () => {
    await expect(dispatch(event("siglab://app/"), "saveWorkload", ["a.ts"])).rejects.toThrow(/saveWorkload: expected 2 argument/);
    await expect(dispatch(event("siglab://app/"), "saveWorkload", ["a.ts", 5])).rejects.toThrow(/saveWorkload: argument 2 is invalid/);
    await expect(dispatch(event("siglab://app/"), "setPluginEnabled", ["x", "yes"])).rejects.toThrow(/argument 2/);
    await expect(dispatch(event("siglab://app/"), "listWorkloads", "nope")).rejects.toThrow(/must be an array/);
    await expect(dispatch(event("siglab://app/"), "exportBundle", ["b.siglab", "not bytes"])).rejects.toThrow(/argument 2/);
  });

  it("registers exactly one invoke channel", () => {
    registerIpc({ handle: (ch: string, fn: never) => electronState.ipcHandlers.set(ch, fn) } as never, handlers);
    expect([...electronState.ipcHandlers.keys()]).toEqual([IPC_CALL_CHANNEL]);
  });
});
