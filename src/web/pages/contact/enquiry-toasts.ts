import { describeApiError } from "../../lib/api-client.ts";

// SPEC section 8: what the contact form's notifications say.

export const enquirySentToast = {
  title: "Message Sent Successfully",
  description: "Thank you for contacting us. We'll get back to you within 24 hours.",
} as const;

/** The error's message ("STATUS: body"), or 'Please try again later.' when it has none. */
export function enquiryErrorToast(error: unknown) {
  return {
    variant: "destructive",
    title: "Error Sending Message",
    description: describeApiError(error, { withStatus: true }),
  } as const;
}
