import { spawn } from "node:child_process";
import { createWriteStream, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { get as httpGet } from "node:http";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { compiledServerPath } from "../build-if-stale.ts";
import { PRODUCTION_ENV } from "./production-env.ts";

// The processes the bench measures: the site as production runs it, and the bare node:http
// server that replays one of its answers.

export const root = fileURLToPath(new URL("../../", import.meta.url));

/** The production server, started as the Dockerfile starts it. */
export const siteCommand = [process.execPath, compiledServerPath];

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (typeof address !== "object" || !address) throw new Error("no free port");
  return address.port;
}

/** Resident memory of a process, from /proc (Linux). */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  if (!match) throw new Error(`no VmRSS for process ${pid}`);
  return Number(match[1]) * 1024;
}

/**
 * CPU time a process has used so far, user and system, all its threads (from /proc, in clock
 * ticks of 10 ms). Unlike a wall-clock time it hardly moves when other processes share the cores.
 */
export function cpuMilliseconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The fields after the command name (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export type SiteProcess = {
  base: string;
  pid: number;
  /** From spawn to the first 200 of /healthz (the server listens once start-up is done). */
  listeningMs: number;
  /** From spawn to the first 200 of the home page (its first render included). */
  firstPageMs: number;
  /** CPU time the process had used by then. */
  firstPageCpuMs: number;
  /** The file the site's stdout and stderr go to: its access log among them. */
  logFile: string;
  /** SIGTERM, then waits for the exit; removes the log and a temporary database unless told to keep them. */
  stop: (options?: { keepFiles?: boolean }) => Promise<void>;
  /** Removes what stop({ keepFiles: true }) kept. */
  removeFiles: () => Promise<void>;
};

export type SiteOptions = {
  logLevel: string;
  /** The embedded database's folder; a new temporary one when neither this nor databaseUrl is given. */
  dataDir?: string;
  databaseUrl?: string;
  /** More of the site's settings (ANALYTICS=false, say). */
  env?: Record<string, string>;
};

/**
 * Starts the production build on a free port and waits for its first 200. Its output goes through
 * a pipe, read by this process into a file, as a container's goes to the runtime's log driver:
 * writing to a pipe costs the site more than writing to a file would.
 */
export async function startSite(options: SiteOptions): Promise<SiteProcess> {
  const port = await freePort();
  const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-"));
  const dataDir = options.dataDir ?? path.join(scratch, "data");
  const logFile = path.join(scratch, "site.log");
  const base = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  const child = spawn(siteCommand[0]!, siteCommand.slice(1), {
    cwd: root,
    env: {
      PATH: process.env.PATH,
      ...PRODUCTION_ENV,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      SITE_URL: base,
      LOG_LEVEL: options.logLevel,
      ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : { DATA_DIR: dataDir }),
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(logFile);
  child.stdout.pipe(log);
  child.stderr.pipe(log, { end: false });
  const logClosed = new Promise<void>((resolve) => log.once("close", () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code))).then(
    async (code) => {
      await logClosed;
      return code;
    },
  );
  const cleanUp = () => rm(scratch, { recursive: true, force: true });

  const firstOk = async (pathname: string) => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) break;
      const ok = await fetch(`${base}${pathname}`).then(
        async (response) => (await response.arrayBuffer(), response.status === 200),
        () => false,
      );
      if (ok) return performance.now() - startedAt;
      await sleep(20);
    }
    child.kill("SIGKILL");
    await exited;
    const log = readFileSync(logFile, "utf8").slice(-3000);
    await cleanUp();
    throw new Error(`the site did not answer 200 on ${pathname}:\n${log}`);
  };
  const listeningMs = await firstOk("/healthz");
  const firstPageMs = await firstOk("/");
  const firstPageCpuMs = cpuMilliseconds(child.pid!);
  return {
    base,
    pid: child.pid!,
    listeningMs: Math.round(listeningMs),
    firstPageMs: Math.round(firstPageMs),
    firstPageCpuMs,
    logFile,
    stop: async ({ keepFiles = false } = {}) => {
      child.kill("SIGTERM");
      const code = await exited;
      if (code !== 0) process.stderr.write(`the site exited with ${code}; its log: ${logFile}\n`);
      else if (!keepFiles) await cleanUp();
    },
    removeFiles: cleanUp,
  };
}

export type RecordedAnswer = { status: number; headers: Record<string, string>; body: Buffer };

/** One answer of the site, exactly as it went over the wire: status, undecoded body and headers. */
export function recordAnswer(url: string, requestHeaders: Record<string, string>): Promise<RecordedAnswer> {
  return new Promise((resolve, reject) => {
    httpGet(url, { headers: requestHeaders }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => {
        // Connection management and framing are the bare server's own; everything else is replayed.
        const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding", "content-length"]);
        const headers = Object.fromEntries(
          Object.entries(response.headers).filter(([name, value]) => !skip.has(name) && typeof value === "string"),
        ) as Record<string, string>;
        resolve({ status: response.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
    }).on("error", reject);
  });
}

export type BareServer = { base: string; pid: number; stop: () => Promise<void> };

/** A bare node:http server, in its own process like the site, replaying one recorded answer. */
export async function startBareServer(answer: RecordedAnswer): Promise<BareServer> {
  const scratch = await mkdtemp(path.join(tmpdir(), "site-bench-bare-"));
  const file = path.join(scratch, "answer.json");
  await writeFile(
    file,
    JSON.stringify({ status: answer.status, headers: answer.headers, bodyBase64: answer.body.toString("base64") }),
  );
  const child = spawn(process.execPath, ["--import", "tsx", "scripts/bench/bare-server.ts", file], {
    cwd: root,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once("data", (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    child.once("exit", (code) => reject(new Error(`the bare server exited with ${code}`)));
  });
  return {
    base: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGTERM");
      await exited;
      await rm(scratch, { recursive: true, force: true });
    },
  };
}

export type ScratchDatabase = { url: string; drop: () => Promise<void> };

/** A new, empty database on a PostgreSQL server, dropped afterwards. */
export async function createScratchDatabase(serverUrl: string): Promise<ScratchDatabase> {
  const name = `site_bench_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      try {
        await dropper.query(`drop database if exists ${name} with (force)`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** Whether a PostgreSQL server answers at this URL. */
export async function postgresAnswers(serverUrl: string): Promise<boolean> {
  if (!serverUrl) return false;
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query("select 1");
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}
