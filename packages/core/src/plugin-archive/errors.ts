/** The one error a plugin archive's reading, writing or installing throws: it names the file, the entry and the problem. */
export class PluginArchiveError extends Error {
  override readonly name = "PluginArchiveError";
  constructor(
    /** the archive (or plugin folder) as the user named it */
    readonly file: string,
    readonly problem: string,
    /** the archive entry the problem is in, when there is one */
    readonly entry?: string,
  ) {
    super(`${file}: ${entry !== undefined ? `${entry}: ` : ""}${problem}`);
  }
}
