// The renderer's worker thread when the server runs from its TypeScript source (`npm run dev`,
// the commands, the tests): the worker's TypeScript module, read by Node itself where it strips
// types (Node 23.6 and later), else through tsx's loader, registered first. The compiled server
// starts dist/server-node/render-worker.js instead (render-pool.ts).
import process from "node:process";
import { workerData } from "node:worker_threads";

if (!process.features.typescript) {
  const { register } = await import("tsx/esm/api");
  register();
}
const worker = await import(workerData.renderWorkerModule);
export default worker.default;
