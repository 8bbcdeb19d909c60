import { describe, expect, it } from "vitest";
import { enquiryErrorToast, enquirySentToast } from "./enquiry-toasts.ts";

describe("the contact form's notifications (SPEC section 8)", () => {
  it("says the message was sent and when the reply comes", () => {
    expect(enquirySentToast).toEqual({
      title: "Message Sent Successfully",
      description: "Thank you for contacting us. We'll get back to you within 24 hours.",
    });
  });

  it("shows an error's message in the destructive 'Error Sending Message' toast", () => {
    expect(enquiryErrorToast(new Error("500: Internal Server Error"))).toEqual({
      variant: "destructive",
      title: "Error Sending Message",
      description: "500: Internal Server Error",
    });
  });

  it("falls back to 'Please try again later.' when the error has no message", () => {
    for (const error of [new Error(""), new Error(), undefined, null, "", {}]) {
      expect(enquiryErrorToast(error)).toEqual({
        variant: "destructive",
        title: "Error Sending Message",
        description: "Please try again later.",
      });
    }
  });
});
