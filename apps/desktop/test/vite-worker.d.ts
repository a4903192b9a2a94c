// Type-checking the tests (tsconfig.node.json) reaches the renderer's sim-client.ts, which imports
// Vite worker constructors (`./x.worker.ts?worker`); the renderer's own tsconfig gets these types
// from vite/client. The tests never construct them (they pass a fake worker factory).
declare module "*?worker" {
  const WorkerConstructor: new (options?: { name?: string }) => Worker;
  export default WorkerConstructor;
}
