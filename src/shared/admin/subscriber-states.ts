// The states of a newsletter subscription as the back office names them. The same list as the
// database's check (SUBSCRIBER_STATUSES in src/server/db/schema.ts; a test holds them equal),
// written here because the pages and the query-string schema cannot import the server.

export const SUBSCRIBER_STATES = ["pending", "confirmed", "unsubscribed", "bouncing"] as const;
export type SubscriberState = (typeof SUBSCRIBER_STATES)[number];

export const SUBSCRIBER_STATE_LABELS: Record<SubscriberState, string> = {
  pending: "Pending",
  confirmed: "Confirmed",
  unsubscribed: "Unsubscribed",
  bouncing: "Bouncing",
};

/** What each state means, for the page's legend and the labels' titles. */
export const SUBSCRIBER_STATE_MEANINGS: Record<SubscriberState, string> = {
  pending: "Asked to subscribe, has not confirmed yet: never mailed a newsletter; deleted after 7 days.",
  confirmed: "Confirmed by the link in the confirmation mail: receives the newsletter.",
  unsubscribed: "Unsubscribed: not mailed again.",
  bouncing: "A newsletter to it was refused for good: not mailed again until an admin lifts the bounce.",
};

export function isSubscriberState(value: string): value is SubscriberState {
  return (SUBSCRIBER_STATES as readonly string[]).includes(value);
}
