export type FieldErrors = Partial<Record<string, string>>;

/** The first problem of each field, keyed by field name; "" for a problem with the whole body. */
export function fieldErrorsFrom(issues: readonly { path: PropertyKey[]; message: string }[]): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of issues) {
    const key = issue.path.map(String).join(".");
    errors[key] ??= issue.message;
  }
  return errors;
}
