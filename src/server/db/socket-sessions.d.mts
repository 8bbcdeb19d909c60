import type { PGlite } from "@electric-sql/pglite";

/** The database as the socket server should see it: each connection's protocol cycle run whole (socket-sessions.mjs). */
export function keepProtocolCyclesTogether(db: PGlite): PGlite;
