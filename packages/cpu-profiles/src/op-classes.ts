/** The op classes are part of the plugin API (plugins write kernel paths with them). */
export { OP_CLASSES, OP_CLASS_IDS, SMP_OP_CLASS_IDS, MEM_OP_CLASS_IDS, type OpClass, type OpClassInfo, type SmpOpClass, type MemOpClass } from "@siglab/plugin-api";
