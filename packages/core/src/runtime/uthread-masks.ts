/** The user-level thread libraries' mask helpers are the plugin API's (@siglab/plugin-api masks). */
export { setMask, setMaskSet, applyHowSet, allSignals, ALL_SIGNALS } from "@siglab/plugin-api";
