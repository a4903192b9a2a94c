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
  root.append(Object.assign(document.createElement("pre"), { className: "fatal", textContent: `SigLab could not start: ${(err as Error).message}` }));
});
