/** Errors for bad profile input: each names the file, the JSON path of the field and the problem. */

export interface ProfileIssue {
  /** JSON pointer of the offending field ("" for the whole file), e.g. "/costs/fxsave/cycles". */
  path: string;
  /** What is wrong, lower-case, e.g. "expected number". */
  message: string;
}

const MAX_LISTED = 5;

function line(file: string, issue: ProfileIssue): string {
  return issue.path ? `${file}: ${issue.path}: ${issue.message}` : `${file}: ${issue.message}`;
}

export class ProfileError extends Error {
  override readonly name = "ProfileError";
  /** The file name the profile came from (as given to the loader). */
  readonly file: string;
  /** JSON path of the first issue. */
  readonly path: string;
  /** The first issue's message without file and path. */
  readonly problem: string;
  readonly issues: readonly ProfileIssue[];
  /** Profile id, when known. */
  readonly profileId: string | undefined;

  constructor(file: string, issues: readonly ProfileIssue[], profileId?: string) {
    const list = issues.length > 0 ? issues : [{ path: "", message: "invalid profile" }];
    const shown = list.slice(0, MAX_LISTED).map((i) => line(file, i));
    if (list.length > MAX_LISTED) shown.push(`${file}: … and ${list.length - MAX_LISTED} more problems`);
    super(shown.join("\n"));
    this.file = file;
    this.path = list[0]!.path;
    this.problem = list[0]!.message;
    this.issues = list;
    this.profileId = profileId;
  }
}

/** A malformed "id@MHz" CPU reference. */
export class CpuRefError extends Error {
  override readonly name = "CpuRefError";
}
