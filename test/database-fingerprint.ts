import { sql } from "drizzle-orm";
import { type Database, queryRows } from "#server/db/client.ts";

// "Changes nothing", for any request: a digest of every row of every table the site owns, to
// compare before and after. Tables a refused request may rightly write are left out: the rate
// limits (a refused attempt is counted) and the passkey challenges (asking for one writes one).
// Picture bytes are left out of the digest (their keys, sizes and owners are in it): hashing them
// would cost more than every other table together, and no route rewrites bytes in place.

const UNWATCHED = new Set(["rate_limit_hits", "rate_limit_windows", "webauthn_challenges", "__drizzle_migrations"]);

type Column = { table_name: string; column_name: string; data_type: string };

const queries = new WeakMap<Database, string>();

async function fingerprintQuery(db: Database): Promise<string> {
  const known = queries.get(db);
  if (known) return known;
  const columns = await queryRows<Column>(
    db,
    sql`select table_name, column_name, data_type from information_schema.columns
        where table_schema = 'public' order by table_name, ordinal_position`,
  );
  const tables = new Map<string, string[]>();
  for (const column of columns) {
    if (UNWATCHED.has(column.table_name) || column.data_type === "bytea") continue;
    tables.set(column.table_name, [...(tables.get(column.table_name) ?? []), `"${column.column_name}"`]);
  }
  const query = [...tables]
    .map(
      ([table, names]) =>
        `select '${table}' as name, count(*)::int as rows, ` +
        `coalesce(md5(string_agg(md5(row(${names.join(", ")})::text), '' order by md5(row(${names.join(", ")})::text))), '') as digest ` +
        `from "${table}"`,
    )
    .join(" union all ");
  queries.set(db, query);
  return query;
}

/** Each table's row count and digest, by name: equal before and after when nothing changed. */
export async function databaseFingerprint(db: Database): Promise<Record<string, string>> {
  const rows = await queryRows<{ name: string; rows: number; digest: string }>(db, sql.raw(await fingerprintQuery(db)));
  return Object.fromEntries(rows.map((row) => [row.name, `${row.rows} ${row.digest}`]));
}
