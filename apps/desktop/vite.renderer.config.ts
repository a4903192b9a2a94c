import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

const here = (p: string): string => fileURLToPath(new URL(p, import.meta.url));

// The renderer (one page) and its workers. Worker files go to workers/, which is how both hosts
// pick their CSP (see src/common/csp.ts): only workers/sim.worker-* may eval.
export default defineConfig({
  root: here("./src/renderer"),
  base: "./",
  publicDir: here("./src/renderer/public"),
  resolve: {
    alias: { "monaco-esm": here("./node_modules/monaco-editor/esm/vs") },
  },
  build: {
    outDir: here("./dist/renderer"),
    emptyOutDir: true,
    target: "chrome130",
    sourcemap: false,
    chunkSizeWarningLimit: 10_000,
    reportCompressedSize: false,
  },
  worker: {
    format: "es",
    rollupOptions: {
      output: {
        entryFileNames: "workers/[name]-[hash].js",
        chunkFileNames: "workers/[name]-[hash].js",
        assetFileNames: "workers/[name]-[hash][extname]",
      },
    },
  },
});
