// The renderer's worker thread when the server runs from its TypeScript source (`npm run dev`,
// the commands, the tests): TypeScript's loader first, then the worker's module. The compiled
// server starts dist/server-node/render-worker.js instead (render-pool.ts).
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const worker = await import(workerData.renderWorkerModule);
export default worker.default;
