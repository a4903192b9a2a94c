/**
 * The C library's own code as the runtime models it (glibc): setjmp/longjmp, memcpy.
 */
import { markHostThrown } from "../common/host-thrown.js";

/** Thrown by longjmp; caught by the matching setjmp frame. The kernel never sees it. */
export class LongJmp {
  constructor(readonly jb: object, readonly value: number) {
    markHostThrown(this);
  }
}
