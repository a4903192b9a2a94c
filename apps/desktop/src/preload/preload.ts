/**
 * Sandboxed preload: exposes exactly the host API as window.siglab, nothing of Node or Electron.
 * Each method is a fixed function calling the one IPC channel; main validates everything again.
 */
import { contextBridge, ipcRenderer, type IpcRendererEvent } from "electron";
import { HOST_METHODS, IPC_CALL_CHANNEL, IPC_EVENT_CHANNEL, type HostEvent } from "../common/host-api.js";

const api: Record<string, unknown> = {};
for (const method of HOST_METHODS) {
  api[method] = (...args: unknown[]) => ipcRenderer.invoke(IPC_CALL_CHANNEL, method, args);
}
api.onEvent = (listener: (e: HostEvent) => void): (() => void) => {
  if (typeof listener !== "function") throw new TypeError("onEvent needs a function");
  const wrapped = (_e: IpcRendererEvent, payload: HostEvent): void => listener(payload);
  ipcRenderer.on(IPC_EVENT_CHANNEL, wrapped);
  return () => {
    ipcRenderer.removeListener(IPC_EVENT_CHANNEL, wrapped);
  };
};

contextBridge.exposeInMainWorld("siglab", Object.freeze(api));
