import { defineConfig } from "vite";

// Sandboxed preload scripts must be a single CommonJS file that only requires "electron".
export default defineConfig({
  build: {
    ssr: "src/preload/preload.ts",
    outDir: "dist/preload",
    emptyOutDir: true,
    target: "chrome140",
    sourcemap: false,
    minify: false,
    rollupOptions: {
      external: ["electron"],
      output: { format: "cjs", entryFileNames: "preload.cjs" },
    },
  },
  ssr: { noExternal: true },
});
