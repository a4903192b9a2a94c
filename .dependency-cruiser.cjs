/**
 * The layers of the workspace, checked by dependency-cruiser (`pnpm layers`, the first step of
 * `pnpm test`). Type-only imports count: a layer that names another's types depends on it.
 *
 *   packages/core/src:  lib/  <-  machine/  <-  kernel/, arch/, mm/, fs/, drivers/  <-  runtime/  <-  runner/, host/
 *
 * docs/architecture.md shows the tree and which Linux 2.4 file each of these files stands for.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "An import circle: the files of a circle cannot be understood, tested or changed one at a time. " +
        "Break it by ownership: the lower file owns the interface of what it holds or calls " +
        "(machine/memory.ts's AddressSpace<Frame>, kernel/core.ts's KernelCore, kernel/task.ts's FilesStruct).",
      from: { path: "^packages/" },
      to: { circular: true },
    },
    {
      name: "machine-knows-no-kernel",
      severity: "error",
      comment: "machine/ is the simulated hardware: it stores what the kernel gives it (typed by the kernel) and knows no kernel, runtime or arch code.",
      from: { path: "^packages/core/src/machine/" },
      to: { path: "^packages/core/src/(kernel|runtime|arch|mm|fs|drivers)/" },
    },
    {
      name: "kernel-knows-no-user-space",
      severity: "error",
      comment: "The kernel (kernel/, arch/, mm/, fs/, drivers/) knows nothing of user space (runtime/): the runtime calls it, through the entry code.",
      from: { path: "^packages/core/src/(kernel|arch|mm|fs|drivers)/" },
      to: { path: "^packages/core/src/runtime/" },
    },
    {
      name: "subsystems-see-kernel-core",
      severity: "error",
      comment: "A subsystem programs against kernel/core.ts's KernelCore; only the assembly (runtime, runner, di, findings, host) imports kernel/kernel.ts, which imports every subsystem.",
      from: { path: "^packages/core/src/(kernel|arch|mm|fs|drivers|machine|lib)/", pathNot: "^packages/core/src/kernel/kernel\\.ts$" },
      to: { path: "^packages/core/src/kernel/kernel\\.ts$" },
    },
    {
      name: "lib-knows-no-simulator",
      severity: "error",
      comment: "lib/ holds helpers that know no simulator (as Linux's lib/).",
      from: { path: "^packages/core/src/lib/" },
      to: { path: "^packages/core/src/(?!lib/)" },
    },
    {
      name: "plugin-api-imports-no-workspace-package",
      severity: "error",
      comment: "@siglab/plugin-api is what plugins build against: it must not depend on the simulator or any other package of this workspace.",
      from: { path: "^packages/plugin-api/src/" },
      to: { path: "^(packages|apps)/(?!plugin-api/)" },
    },
  ],
  options: {
    // only the workspace's own files: a package is followed into its sources, node_modules never
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    // workspace packages resolve through their exports maps to their sources ("default"), as the
    // simulator itself runs them
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "default"],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
