import { builtinModules } from "node:module";
import { defineConfig } from "vite";

// Electron main process: one CommonJS file, every dependency bundled (the packaged app ships no node_modules).
export default defineConfig({
  build: {
    ssr: "src/main/main.ts",
    outDir: "dist/main",
    emptyOutDir: true,
    target: "node22",
    sourcemap: true,
    minify: false,
    rollupOptions: {
      external: ["electron", ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
      output: { format: "cjs", entryFileNames: "main.cjs" },
    },
  },
  ssr: { noExternal: true, target: "node" },
});
