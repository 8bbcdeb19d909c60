// The cookie that hands a new share link's token from Share preview's post to the editor's page
// after the redirect (docs/decisions/058-history-says-what-changed.md, Post/Redirect/Get): the
// studio's routes (item-routes.ts) set it and read it.

import type { FastifyRequest } from "fastify";
import type { StudioKind } from "#shared/content/documents.ts";
import { isOwnShareToken, previewPath } from "../../content/links.ts";
import type { AdminContext } from "../context.ts";

export const SHARE_FORM_PROBLEM =
  "This Share preview form is out of date: reload the page, then press Share preview again.";

/** The cookie that hands a new share link's token to the editor's page after the redirect. */
const SHARE_COOKIE = "studio_share";
/** How long the editor shows a new share link again, to the browser that made it. */
export const SHARE_LINK_SHOWN_SECONDS = 10 * 60;

/**
 * The cookie, on the editor's own path only (the item's page and its history), never sent
 * elsewhere nor read by a script; it ends by itself. Its value is "<link id>.<token>".
 */
export const shareCookie = (path: string, value: string, secure: boolean) =>
  `${SHARE_COOKIE}=${value}; Path=${path}; Max-Age=${SHARE_LINK_SHOWN_SECONDS}; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;

/** The share cookie's value in a Cookie header, if any. */
export function shareCookieValue(header: string | undefined): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === SHARE_COOKIE) return rest.join("=");
  }
  return undefined;
}

/**
 * The share link the editor's address names (`?shared=`): its address when this browser holds its
 * token (the cookie Share preview set) and it is this person's link of this item, in force;
 * otherwise that it is not shown here any more.
 */
export async function shownShareLink(
  context: AdminContext,
  request: FastifyRequest,
  item: { kind: StudioKind; id: string },
  linkId: string,
): Promise<{ issuedShareLink: string } | { shareLinkGone: true }> {
  const held = shareCookieValue(request.headers.cookie);
  const dot = held?.indexOf(".") ?? -1;
  if (held && dot > 0 && held.slice(0, dot) === linkId.toLowerCase()) {
    const token = held.slice(dot + 1);
    const own = await isOwnShareToken(
      context.db,
      { item, linkId: linkId.toLowerCase(), token, staffId: context.sessionOf(request).staff.id },
      context.now(),
    );
    if (own) return { issuedShareLink: `${new URL(context.siteUrl).origin}${previewPath(token)}` };
  }
  return { shareLinkGone: true };
}
