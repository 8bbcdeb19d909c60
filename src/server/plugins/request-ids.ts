import { randomBytes } from "node:crypto";
import type { FastifyBaseLogger } from "fastify";
import type { Bindings, ChildLoggerOptions } from "fastify/types/logger.js";

// Two pieces of per-request work made cheap, since every answer pays for them
// (docs/performance.md, "Less per-request work").

/**
 * Request IDs: this process's random prefix and a counter, as in `k3x9q2mw-1a`. Unique across
 * instances (the prefix is 40 random bits) and within one (the counter), which is all a request
 * ID is for: finding a request's log line from the X-Request-Id a client reports. It costs a
 * counter increment, not a random UUID per request.
 */
export function requestIdGenerator(): () => string {
  const prefix = randomBytes(5).readUIntBE(0, 5).toString(36).padStart(8, "0");
  let counter = 0;
  return () => `${prefix}-${(++counter).toString(36)}`;
}

type LogMethod = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/**
 * A request's logger, made only when something logs through it. Fastify gives every request a
 * child logger carrying its ID; pino builds the child's serialised bindings up front, which cost
 * a cached page several per cent of its CPU, while most requests log nothing but the access line
 * (written through the parent: plugins/request-logging.ts).
 */
class LazyRequestLogger {
  private made?: FastifyBaseLogger;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  /** The child logger itself, made the first time it is needed. */
  get real(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real.level = level;
  }

  isLevelEnabled(level: string): boolean {
    // A route with a level of its own needs the child to answer; any other asks the parent.
    const logger = (this.made ?? (this.options.level ? this.real : this.parent)) as FastifyBaseLogger & {
      isLevelEnabled?: (level: string) => boolean;
    };
    return logger.isLevelEnabled?.(level) ?? false;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }

  silent(): void {}
}

for (const method of ["fatal", "error", "warn", "info", "debug", "trace"] satisfies LogMethod[]) {
  Object.defineProperty(LazyRequestLogger.prototype, method, {
    value(this: LazyRequestLogger, ...args: unknown[]) {
      (this.real[method] as (...values: unknown[]) => void)(...args);
    },
  });
}

/** Fastify's childLoggerFactory: each request's logger, made on first use. */
export function lazyChildLogger(
  logger: FastifyBaseLogger,
  bindings: Bindings,
  options: ChildLoggerOptions,
): FastifyBaseLogger {
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
}
