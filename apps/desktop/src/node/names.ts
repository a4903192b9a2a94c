/** Validation of names the renderer sends; a host never joins an unchecked name into a path. */
import { HostArgumentError } from "../common/host-schema.js";

const WORKLOAD_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}\.ts$/;
const DRAFT_KEY = /^(example|user|new):[A-Za-z0-9][A-Za-z0-9_.-]{0,120}$/;
const PROFILE_ID = /^[A-Za-z0-9][A-Za-z0-9._+~-]{0,63}$/;
const PLUGIN_ID = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
const EXPORT_NAME = /^[A-Za-z0-9][A-Za-z0-9 _.()-]{0,150}\.(csv|png|svg|json|siglab|txt)$/;

function check(re: RegExp, what: string, value: string): string {
  if (!re.test(value) || value.includes("..")) {
    throw new HostArgumentError(`invalid ${what} "${value}" (allowed: ${re.source})`);
  }
  return value;
}

export const checkWorkloadName = (n: string): string => check(WORKLOAD_NAME, "workload file name", n);
export const checkDraftKey = (k: string): string => check(DRAFT_KEY, "draft key", k);
export const checkProfileId = (id: string): string => check(PROFILE_ID, "profile id", id);
export const checkPluginId = (id: string): string => check(PLUGIN_ID, "plugin id", id);
export const checkExportName = (n: string): string => check(EXPORT_NAME, "export file name", n);

/** Draft keys contain ':'; file names use '__' instead (safe on Windows). */
export const draftFileName = (key: string): string => `${checkDraftKey(key).replace(":", "__")}.json`;
