// Host globals present in every runtime SigLab's core targets (Node >= 17, browsers, workers),
// declared here because core compiles without DOM or Node type libraries.
declare function structuredClone<T>(value: T): T;
