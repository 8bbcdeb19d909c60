// The inbox an address reaches, for the daily limit of confirmation mails per mailbox
// (docs/decisions/044-newsletter-double-opt-in.md): `victim+1@example.com` and
// `victim+2@example.com` are two addresses on the list but one inbox, and so are
// `v.i.c.tim@gmail.com` and `victim@googlemail.com`. Only for counting: the list keeps the address
// as it was typed (lower case).

/** Mail providers that ignore the dots in an address's local part, and the domain they deliver it under. */
const DOTLESS_PROVIDERS: Record<string, string> = {
  "gmail.com": "gmail.com",
  "googlemail.com": "gmail.com",
};

/**
 * An address as the mailbox it reaches: lower case, without a `+tag` (sub-addressing, RFC 5233),
 * and for the providers that ignore dots (gmail.com, googlemail.com) without dots and under one
 * domain. A local part that starts with `+` is kept as it is: there is no mailbox before the tag.
 */
export function canonicalMailbox(email: string): string {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf("@");
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf("+");
  if (plus > 0) local = local.slice(0, plus);
  const provider = DOTLESS_PROVIDERS[domain];
  if (provider) {
    local = local.replaceAll(".", "");
    domain = provider;
  }
  return `${local}@${domain}`;
}
