/** Renderer entry: pick the host (Electron preload or HTTP), set up Monaco, start the app. */
import "./styles.css";
import { App } from "./app.js";
import { getHost } from "./host/index.js";
import { followOsTheme, setupMonaco } from "./monaco-setup.js";

setupMonaco();
followOsTheme();
const root = document.getElementById("app")!;
const app = new App(getHost(), root);
app.start().catch((err: unknown) => {
  root.removeAttribute("aria-busy");
  const message = (err as Error).message;
  root.append(Object.assign(document.createElement("pre"), { className: "fatal", textContent: /session token/.test(message) ? noSession() : `SigLab could not start: ${message}` }));
});

/**
 * A page of `siglab serve` opened without its session (a link pasted into another browser or
 * profile): what it needs, and how a shared link still gets there.
 */
function noSession(): string {
  const hash = location.hash.length > 1 ? location.hash : "";
  return [
    "This SigLab page needs its session: open the address `siglab serve` printed in its terminal",
    `(${location.origin}/?token=…) in this browser first.`,
    ...(hash ? ["", "The link you opened carries an experiment: after that, paste it into Open link…, or add", `${hash.length > 80 ? `${hash.slice(0, 77)}…` : hash} to the printed address.`] : []),
    "",
    "A SigLab link opens only where SigLab runs (the app, or siglab serve on this machine);",
    "for another machine, ask for the experiment's bundle (Export bundle) and open it there.",
  ].join("\n");
}
