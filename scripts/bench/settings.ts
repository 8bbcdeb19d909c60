// The bench's settings, read from the environment once. A bad value stops the bench with one line
// naming the variable, like the server's own settings.

export class BenchSetupError extends Error {}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new BenchSetupError(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function logLevel(name: string, fallback: string): string {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!LOG_LEVELS.includes(raw))
    throw new BenchSetupError(`${name} must be one of ${LOG_LEVELS.join(", ")} (got "${raw}")`);
  return raw;
}

export type BenchSettings = {
  /** wrk's threads, connections and seconds per measurement. */
  threads: number;
  connections: number;
  seconds: number;
  /** Measurements of each server per target, alternating site and baseline. */
  rounds: number;
  /** An unrecorded wrk run against each server before the rounds, so that both are warm. */
  warmupSeconds: number;
  /** The site's LOG_LEVEL in the throughput and startup sections. */
  logLevel: string;
  /** Lighthouse runs per route. */
  lighthouseRuns: number;
  /** First start plus restart cycles per database in the startup section. */
  startRuns: number;
  /** How long a started site is left alone before its idle memory is read. */
  idleSeconds: number;
  /** A PostgreSQL server on which the startup section makes (and drops) a database; "" skips it. */
  postgresUrl: string;
};

export function readSettings(): BenchSettings {
  return {
    threads: positiveInteger("BENCH_THREADS", 1),
    connections: positiveInteger("BENCH_CONNECTIONS", 50),
    seconds: positiveInteger("BENCH_SECONDS", 5),
    rounds: positiveInteger("BENCH_ROUNDS", 3),
    warmupSeconds: positiveInteger("BENCH_WARMUP_SECONDS", 1),
    logLevel: logLevel("BENCH_LOG_LEVEL", "info"),
    lighthouseRuns: positiveInteger("BENCH_RUNS", 3),
    startRuns: positiveInteger("BENCH_START_RUNS", 3),
    idleSeconds: positiveInteger("BENCH_IDLE_SECONDS", 5),
    postgresUrl: process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
  };
}
