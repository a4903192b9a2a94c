// Host globals present in every runtime SigLab's core targets (Node >= 17, browsers, workers),
// declared here because core compiles without DOM or Node type libraries.
declare function structuredClone<T>(value: T): T;
// Timers exist in every host that supervises a sandbox (Node, browsers, workers).
declare function setTimeout(handler: () => void, ms?: number): unknown;
declare function clearTimeout(id: unknown): void;
