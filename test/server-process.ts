import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { compiledServerPath } from "../scripts/build-if-stale.ts";
import { currentLayer } from "./layers.ts";
import { freePort } from "./smtp-peer.ts";

// The real server, as `npm start` runs it (the compiled build, which the tests' global set-up
// makes when stale), in a child process of the test.

const root = path.resolve(import.meta.dirname, "..");

export type ServerProcess = {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  /** Resolves with the exit code. */
  exited: Promise<number | null>;
  ready: () => Promise<void>;
};

/**
 * `port`: when the test must know it before the start (a SITE_URL of http://localhost:<port>, for
 * passkeys, which browsers refuse on a bare IP address); a free one otherwise.
 */
export async function startServerProcess(
  env: Record<string, string>,
  options: { port?: number } = {},
): Promise<ServerProcess> {
  const layer = currentLayer();
  if (layer === "unit" || layer === "integration")
    throw new Error(
      `a ${layer} test started the compiled server: it belongs in the system layer (test/layers.ts decides from its imports)`,
    );
  const port = options.port ?? (await freePort());
  const child = spawn(process.execPath, [compiledServerPath], {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PORT: String(port),
      LOG_LEVEL: "info",
      // No daily backup (and its drill) from a test's server; a test of them turns it on.
      BACKUP_SCHEDULE: "false",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    child,
    baseUrl,
    output: () => output,
    exited,
    ready: async () => {
      const deadline = Date.now() + 60_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}:\n${output}`);
        try {
          if ((await fetch(`${baseUrl}/readyz`)).status === 200) return;
        } catch {
          // Not listening yet.
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`server not ready within 60 s:\n${output}`);
    },
  };
}
