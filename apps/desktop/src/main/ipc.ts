/**
 * One IPC channel for host calls. Every call is checked: the sender must be the app's own main
 * frame (siglab://app), the method must be a host method, and the arguments must match its schema.
 */
import type { IpcMain, IpcMainInvokeEvent } from "electron";
import { checkHostArgs, isHostMethod } from "../common/host-schema.js";
import { IPC_CALL_CHANNEL } from "../common/host-api.js";
import type { HostHandlers } from "../node/host-service.js";
import { isAppUrl } from "./security.js";

export class IpcRefusal extends Error {}

/** True when the call comes from the main frame of a window that shows the app. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, "senderFrame" | "sender">): boolean {
  const frame = event.senderFrame;
  if (!frame) return false;
  if (frame.parent) return false;
  if (event.sender && event.sender.mainFrame !== frame) return false;
  return isAppUrl(frame.url);
}

export function createIpcDispatcher(handlers: HostHandlers) {
  return async (event: IpcMainInvokeEvent, method: unknown, args: unknown): Promise<unknown> => {
    if (!isTrustedSender(event)) {
      throw new IpcRefusal(`refused: host call from untrusted frame ${event.senderFrame?.url ?? "(none)"}`);
    }
    if (!isHostMethod(method)) throw new IpcRefusal(`refused: unknown host method ${JSON.stringify(method)}`);
    checkHostArgs(method, args);
    const fn = handlers[method] as (...a: unknown[]) => Promise<unknown>;
    return fn(...args);
  };
}

export function registerIpc(ipcMain: IpcMain, handlers: HostHandlers): void {
  ipcMain.handle(IPC_CALL_CHANNEL, createIpcDispatcher(handlers));
}
