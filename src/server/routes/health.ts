import { sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import type { Database } from "../db/client.ts";
import { migrationsAreApplied } from "../db/migrate.ts";

/**
 * /healthz: the process is alive. /readyz: the database answers and every migration is applied,
 * so a load balancer sends traffic only to instances that can store an enquiry.
 */
export function registerHealthRoutes(app: FastifyInstance, db: Database): void {
  app.get("/healthz", async (_request, reply) => reply.header("cache-control", "no-store").send({ status: "ok" }));

  app.get("/readyz", async (request, reply) => {
    reply.header("cache-control", "no-store");
    try {
      await db.execute(sql`select 1`);
    } catch (error) {
      request.log.debug({ errCode: (error as { code?: string }).code }, "readiness: database unreachable");
      return reply.code(503).send({ status: "unavailable", reason: "The database does not answer." });
    }
    try {
      if (!(await migrationsAreApplied(db))) {
        return reply.code(503).send({ status: "unavailable", reason: "Database migrations are not all applied." });
      }
    } catch {
      return reply.code(503).send({ status: "unavailable", reason: "The database does not answer." });
    }
    return reply.send({ status: "ready" });
  });
}
