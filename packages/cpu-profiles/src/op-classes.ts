/** The op classes are part of the plugin API (plugins write kernel paths with them). */
export { OP_CLASSES, OP_CLASS_IDS, SMP_OP_CLASS_IDS, MACHINE_OP_CLASS_IDS, type OpClass, type OpClassInfo, type SmpOpClass, type MachineOpClass } from "@siglab/plugin-api";
