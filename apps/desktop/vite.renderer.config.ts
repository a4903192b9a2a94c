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
    // In the sandbox worker, function and class names stay as written: the API workload code sees
    // (siglab.workload, the façades' methods) and the error messages it gets show them, as in the
    // CLI. The other workers keep the smaller minified names.
    plugins: () => {
      let sandbox = false;
      return [
        {
          name: "siglab-sandbox-keep-names",
          options(o: { input?: unknown }) {
            sandbox = JSON.stringify(o.input ?? "").includes("sim.worker");
          },
          outputOptions(o: Record<string, unknown>) {
            return sandbox ? { ...o, keepNames: true } : o;
          },
        },
      ];
    },
    rollupOptions: {
      output: {
        entryFileNames: "workers/[name]-[hash].js",
        chunkFileNames: "workers/[name]-[hash].js",
        assetFileNames: "workers/[name]-[hash][extname]",
      },
    },
  },
});
