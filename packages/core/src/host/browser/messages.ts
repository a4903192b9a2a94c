/**
 * What the browser host's two sides (worker.ts in the sandbox worker, factory.ts with the
 * supervisor) say to each other beyond core's sandbox protocol. Kept apart so that the
 * supervisor's side never imports the simulator.
 */

/**
 * Posted by the sandbox worker after each request, from a macrotask: it can only run once every
 * promise job the request left behind has run. The factory holds a request's final message until
 * it comes; the supervisor never sees it.
 */
export const IDLE_MESSAGE = "siglab:idle";

export interface IdleMessage {
  type: typeof IDLE_MESSAGE;
}
