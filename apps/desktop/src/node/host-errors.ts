/**
 * Errors a host method throws on purpose, each with the HTTP status the local server answers with
 * (Electron IPC passes the message on). Anything else is an unexpected failure (500).
 */
export class HostError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A named thing (workload, plugin) does not exist. */
export class NotFoundError extends HostError {
  constructor(message: string) {
    super(404, message);
  }
}

/** A payload over its limit (workload source, export, bundle). */
export class PayloadTooLargeError extends HostError {
  constructor(message: string) {
    super(413, message);
  }
}

/**
 * A write the file rules refuse: a symlink or a non-regular file where a file should go, a
 * symlinked folder inside the workspace, or (code "EEXIST") a file that must not be replaced.
 */
export class WriteRefusedError extends HostError {
  constructor(
    message: string,
    readonly code?: "EEXIST",
  ) {
    super(409, message);
  }
}
