/** The plugins some calibration figures and predictions need, by manifest id. */
export const NO_CLI_EXIT = "no-cli-exit";
export const SYSENTER = "sysenter";
export const NGPT = "ngpt";
export const SA_NOFP = "sa-nofp";

/** Why something needing `required` plugins cannot run yet, or undefined when all are built in. */
export function pendingReason(required: readonly string[], available: readonly string[]): string | undefined {
  const missing = required.filter((id) => !available.includes(id));
  if (!missing.length) return undefined;
  return `pending (plugin ${missing.join(", ")} not built)`;
}
