/** The plugin API's run-time values (everything else it exports is a type). */
export { PLUGIN_API_VERSION } from "./version.js";
export * from "./constants.js";
export { OP_CLASSES, OP_CLASS_IDS, SMP_OP_CLASSES, SMP_OP_CLASS_IDS, MACHINE_OP_CLASSES, MACHINE_OP_CLASS_IDS } from "./op-classes.js";
export { CORE_PHASES, op } from "./paths.js";
export { Sigset, NSIG, SIGKILL, SIGSTOP, SIGRTMIN } from "./sigset.js";
export { NR, NR_NAME } from "./nr.js";
export { stateKey } from "./state.js";
export { TOKENS, SINGLE_VALUED, SERVICES } from "./tokens.js";
export { ContainerModule } from "./container.js";
export { setMask, setMaskSet, applyHowSet, allSignals, ALL_SIGNALS } from "./masks.js";
export { runUserAndRead } from "./user-paths.js";
