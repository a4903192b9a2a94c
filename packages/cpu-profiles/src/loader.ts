/**
 * The profile loader's public face: parse a file, resolve inheritance, resolve at a clock, parse
 * "id@MHz". Browser-safe (no fs); reading a folder of user profiles lives in ./node.ts.
 */
export { CpuRefError, ProfileError, type ProfileIssue } from "./errors.js";
export { MAX_PROFILE_BYTES, parseProfileFile, sourceFileName, validateProfileSource } from "./parse.js";
export {
  checkResolvedProfile,
  resolveInheritance,
  resolveProfile,
  tryResolveInheritance,
  type ResolveOptions,
  type ResolveResult,
} from "./resolve.js";
export { formatCpuRef, parseCpuRef, type ParsedCpuRef } from "./cpu-ref.js";
export { OP_FEATURE } from "./checks.js";
