import { randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Database, queryRows } from "./client.ts";

/**
 * The value of a shared setting, created once with `make()` when absent. Instances starting
 * together agree on one value: the insert that loses the race reads the winner's.
 */
export async function sharedSetting(db: Database, key: string, make: () => string): Promise<string> {
  await queryRows(
    db,
    sql`insert into app_settings (key, value) values (${key}, ${make()}) on conflict (key) do nothing`,
  );
  const [row] = await queryRows<{ value: string }>(db, sql`select value from app_settings where key = ${key}`);
  if (!row) throw new Error(`setting ${key} could not be read`);
  return row.value;
}

export const generateSecret = () => randomBytes(32).toString("base64url");
