/**
 * The CLI's output sinks. Everything the CLI prints goes to stdout or stderr through
 * `guardOutput()`: control, bidirectional and separator characters in it are escaped
 * (@siglab/core common/safe-text.ts) — a last line of defence, so that no text from a workload, a
 * bundle or a plugin can send a terminal an escape sequence or a carriage return, whatever path it
 * took. Newlines stay (the output's own lines): fields that come from foreign code are escaped one
 * by one where they are formatted (`shown`, `oneLine`), so that one cannot start a line of its own.
 * The progress line (run/parallel.ts) is the CLI's own and writes its sequences through `rawStderr`.
 */
import { Writable } from "node:stream";
import { escapeControls, escapeDeep } from "@siglab/core/common";

type Write = typeof process.stdout.write;

let rawErr: ((s: string) => boolean) | undefined;

/** Escapes control characters in everything written to process.stdout and process.stderr from now on. */
export function guardOutput(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (chunk: unknown, ...rest: unknown[]) => boolean;
    if (stream === process.stderr) rawErr = (s) => write(s);
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text = typeof chunk === "string" ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString("utf8") : chunk;
      // a Buffer became a string: its encoding argument no longer applies
      if (typeof chunk !== "string" && typeof rest[0] === "string") rest.shift();
      return write(typeof text === "string" ? escapeControls(text, { block: true }) : text, ...rest);
    }) as Write;
  }
}

/** The CLI's own terminal sequences (the progress line), past the guard. */
export function rawStderr(s: string): boolean {
  return rawErr ? rawErr(s) : process.stderr.write(s);
}

/** A one-line field from foreign code (a message, a name, a label) for text output. */
export const oneLine = (s: string): string => escapeControls(s);

/** Results, a bundle's experiment or a manifest with every string escaped as a one-line field, for text output (never for --json). */
export const shown = escapeDeep;

/** stderr past the guard as a stream (readline's prompt, which moves the cursor itself). */
export function rawStderrStream(): Writable {
  return new Writable({
    write(chunk: Buffer | string, _enc, done) {
      rawStderr(typeof chunk === "string" ? chunk : chunk.toString("utf8"));
      done();
    },
  });
}
