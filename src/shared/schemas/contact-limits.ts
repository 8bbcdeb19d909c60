/** Upper bounds of the enquiry's text fields; the schema enforces them, the form's inputs show them. */
export const contactFieldLimits = {
  firstName: 100,
  lastName: 100,
  email: 254,
  company: 200,
  message: 5000,
} as const;

/** A form sent sooner than this after its signed token was issued is taken for a script. */
export const MIN_FORM_FILL_MS = 3000;
