// The shape of the ids the database makes (uuid), checked before a query ever sees one: a malformed
// id in a URL or a form is a 404 or a 400, never a database error.

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === "string" && UUID_PATTERN.test(value);
}
