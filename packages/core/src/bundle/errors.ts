/** The one error type bundle reading throws: it names the bundle file, the entry and the problem. */

export type BundleErrorCode =
  | "not-zip"
  | "unsafe-path"
  | "too-large"
  | "duplicate-entry"
  | "corrupt"
  | "invalid-json"
  | "schema"
  | "newer-version"
  | "unknown-version"
  | "hash-mismatch"
  | "missing-entry"
  | "unlisted-entry"
  | "missing-plugin"
  | "inconsistent"
  | "invalid-input"
  // bundle merge: a file that is not a part, parts of different experiments, overlapping parts, runs no part holds
  | "not-a-part"
  | "mismatch"
  | "overlap"
  | "gap";

export class BundleError extends Error {
  override readonly name = "BundleError";
  constructor(
    readonly code: BundleErrorCode,
    /** Bundle file name as the user knows it (e.g. "x.siglab"). */
    readonly file: string,
    readonly problem: string,
    /** Zip entry the problem is in, when there is one. */
    readonly entry?: string,
  ) {
    super(`${file}: ${entry !== undefined ? `${entry}: ` : ""}${problem}`);
  }
}
