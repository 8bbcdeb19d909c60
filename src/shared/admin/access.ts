// Who may use a back-office route (src/shared/admin/routes.ts, the route table, says it of each):
// in a module of its own that imports nothing, so that what the table is built from can name it
// without importing the table.

/**
 * Who may use a route: anyone (the sign-in door), any signed-in member of staff, those who may
 * publish (admins, and staff an admin has allowed to: "Can publish"), or admins.
 */
export type AdminAccess = "public" | "staff" | "publisher" | "admin";
