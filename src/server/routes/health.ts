import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";
import { migrationsAreApplied } from "../db/migrate.ts";
import { errorCode } from "../plugins/request-logging.ts";

/** A load balancer's check must get an answer quickly, even from a database that hangs. */
const READINESS_TIMEOUT_MS = 2000;

async function withinReadinessTimeout<T>(run: () => Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error("readiness check timed out")), READINESS_TIMEOUT_MS);
  });
  try {
    return await Promise.race([run(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * /healthz: the process is alive. /readyz: the database answers and every migration is applied,
 * so a load balancer sends traffic only to instances that can store an enquiry.
 */
export function registerHealthRoutes(app: FastifyInstance, db: Database): void {
  app.get("/healthz", async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));

  app.get("/readyz", async (request, reply) => {
    reply.header("cache-control", "no-store");
    let migrated: boolean;
    try {
      migrated = await withinReadinessTimeout(async () => {
        await db.execute(sql`select 1`);
        return migrationsAreApplied(db);
      });
    } catch (error) {
      request.log.debug({ errCode: errorCode(error) }, "readiness: database unreachable");
      return reply.code(503).send({ status: "unavailable", reason: "The database does not answer." });
    }
    if (!migrated) {
      return reply.code(503).send({ status: "unavailable", reason: "Database migrations are not all applied." });
    }
    return reply.send({ status: "ready" });
  });
}
