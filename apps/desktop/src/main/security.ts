/**
 * Electron security checklist items that apply per web contents: no navigation away from the app,
 * no new windows (external https links go to the system browser after validation), no <webview>,
 * no permission grants.
 */
import { shell, type Session, type WebContents } from "electron";
import { APP_ORIGIN } from "../common/host-api.js";
import { isAllowedExternalUrl } from "../common/url-policy.js";

export function isAppUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    return `${u.protocol}//${u.host}` === APP_ORIGIN;
  } catch {
    return false;
  }
}

export function hardenWebContents(contents: WebContents): void {
  contents.on("will-navigate", (event, url) => {
    // In-app reloads stay; anything else is refused (links open through the window-open handler).
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on("will-redirect", (event, url) => {
    if (!isAppUrl(url)) event.preventDefault();
  });
  contents.on("will-attach-webview", (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url);
    return { action: "deny" };
  });
}

/** Deny every permission request (camera, notifications, ...): the app needs none. */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}
