/**
 * Paths on the command line are the user's: relative to the folder the command was typed in.
 * `pnpm siglab …` runs the workspace's script from the workspace root and says where it was typed
 * in INIT_CWD, so the CLI moves back there first (the built `siglab` and `npx` start in it already).
 * Imported first by main.ts; nothing else in the CLI depends on the process's folder.
 */
import { statSync } from "node:fs";

const typedIn = process.env["INIT_CWD"];
if (typedIn && process.env["npm_lifecycle_event"] === "siglab" && typedIn !== process.cwd()) {
  try {
    if (statSync(typedIn).isDirectory()) process.chdir(typedIn);
  } catch {
    /* the folder is gone: stay in the workspace root */
  }
}
