// Where the enquiry outbox (enquiry-outbox.ts) keeps enquiries; it removes the key when empty.
export const OUTBOX_STORAGE_KEY = "enquiry-outbox";

/** Whether enquiries wait in the outbox: only then does a page load the code that sends them. */
export function hasQueuedEnquiries(): boolean {
  try {
    return localStorage.getItem(OUTBOX_STORAGE_KEY) !== null;
  } catch {
    return false; // storage disabled: nothing can have been kept
  }
}
