import type { FastifyBaseLogger, FastifyInstance, FastifyReply } from "fastify";
import type { ApiErrorBody } from "#shared/api-types.ts";
import { type LinkCard, pathOfCardKey, SITE_CARD_KEY, siteCard } from "#shared/link-card.ts";
import type { Database } from "../db/client.ts";
import type { PageRenderer } from "../render/page-renderer.ts";
import type { ReadApi } from "../routes/content-api.ts";
import { mediaIndex } from "../content/responsive-images.ts";
import { findMediaByKey, makeMissingVariant, readMediaFile } from "../media/media-store.ts";
import { MEDIA_CACHE_CONTROL, PUBLIC_PICTURE_CORP } from "../media/media-routes.ts";
import { CardMaker, CardsBusy } from "./card-maker.ts";
import { CARD_NAME_PATTERN, cardHash } from "./card-address.ts";

// The link-preview cards' public side (docs/decisions/053-link-preview-cards.md): GET and HEAD
// /cards/<key>-<hash>.jpg. The card is what the public page at the key's path shows now, read from
// that page as it is rendered for visitors (so a draft, an unpublished or a future article has no
// page and no card); a hash that is not the page's card now is a 404, so an old card stops being
// served once its page changes or goes. An answer that is served names fixed bytes: a year, immutable.

const ADDRESS_RULE =
  "A card's address is /cards/<a page's key>-<16 hexadecimal digits>.jpg, as a page's og:image names it.";

/** A public page's card now; undefined when there is no such page; "unavailable" when it cannot be read now. */
export type CardOfPage = (pathname: string, log: FastifyBaseLogger) => Promise<LinkCard | undefined | "unavailable">;

/** Cards of pages remembered per content version: beyond this many, all are forgotten at once. */
const MAX_PAGE_CARDS = 2000;

/**
 * A page's card read from the page itself, rendered as a visitor gets it (the public read: only
 * what is published and due), remembered until the content version moves; nothing is remembered
 * without a version (development).
 */
export function cardsFromPages(deps: {
  renderer?: PageRenderer;
  readApi: ReadApi;
  contentVersion?: () => string;
}): CardOfPage {
  const kept = new Map<string, LinkCard | undefined>();
  let keptVersion: string | undefined;
  return async (pathname, log) => {
    if (!deps.renderer) return "unavailable";
    const version = deps.contentVersion?.();
    if (version !== keptVersion) {
      kept.clear();
      keptVersion = version;
    }
    if (version !== undefined && kept.has(pathname)) return kept.get(pathname);
    const rendered = await deps.renderer.render(pathname, { readApi: deps.readApi, log });
    if (!rendered.complete) return "unavailable";
    const card = rendered.status === 200 ? rendered.card : undefined;
    if (version !== undefined) {
      if (kept.size >= MAX_PAGE_CARDS) kept.clear();
      kept.set(pathname, card);
    }
    return card;
  };
}

export type CardRouteDependencies = {
  db: Database;
  cardOfPage: CardOfPage;
  /** The maker (tests pass one that counts or slows its drawing). */
  maker?: CardMaker;
};

function problem(reply: FastifyReply, status: 400 | 404 | 503, message: string) {
  const body: ApiErrorBody = {
    error: status === 400 ? "Bad Request" : status === 404 ? "Not Found" : "Service Unavailable",
    message,
  };
  return reply.code(status).header("cache-control", "no-store").send(body);
}

/** An author's photo as a card draws it: the library's JPEG at 640 (or the widest below). */
export async function cardPhoto(db: Database, reference: string): Promise<Buffer | undefined> {
  const src = (await mediaIndex(db)).resolve(reference)?.src;
  const found = src ? /^\/media\/([0-9a-f]{16})\/(\d+\.jpg)$/.exec(src) : null;
  if (!found) return undefined;
  const row = await findMediaByKey(db, found[1]!);
  if (!row) return undefined;
  return ((await readMediaFile(db, row.id, found[2]!)) ?? (await makeMissingVariant(db, row, found[2]!)))?.bytes;
}

export function cardMakerFor(db: Database): CardMaker {
  return new CardMaker({ photoOf: (reference) => cardPhoto(db, reference) });
}

export function registerCardRoutes(app: FastifyInstance, deps: CardRouteDependencies): CardMaker {
  const maker = deps.maker ?? cardMakerFor(deps.db);

  app.get<{ Params: { name: string } }>("/cards/:name", { compress: false }, async (request, reply) => {
    const { name } = request.params;
    const found = CARD_NAME_PATTERN.exec(name);
    if (!found) return problem(reply, 404, ADDRESS_RULE);
    const [, key = "", hash = ""] = found;
    const pathname = key === SITE_CARD_KEY ? undefined : pathOfCardKey(key);
    // The answers name nothing of the address: it may be a guess at something not public.
    if (key !== SITE_CARD_KEY && !pathname) return problem(reply, 404, "No page of the site has this card.");
    let card: LinkCard | undefined | "unavailable";
    try {
      card = pathname ? await deps.cardOfPage(pathname, request.log) : siteCard;
    } catch (error) {
      request.log.error({ err: error }, "a card's page could not be read");
      card = "unavailable";
    }
    if (card === "unavailable") {
      reply.header("retry-after", "5");
      return problem(reply, 503, "The card cannot be made right now. Try again in a moment.");
    }
    if (!card) return problem(reply, 404, "There is no public page for this card.");
    if (cardHash(card) !== hash) {
      return problem(reply, 404, "This card is out of date: its page shows another one now (see the page's og:image).");
    }
    const etag = `"${key}-${hash}"`;
    reply
      .header("cross-origin-resource-policy", PUBLIC_PICTURE_CORP)
      .header("cache-control", MEDIA_CACHE_CONTROL)
      .header("etag", etag);
    if (request.headers["if-none-match"] === etag) return reply.code(304).send();
    let bytes: Buffer;
    try {
      bytes = await maker.get(`${key}-${hash}`, card);
    } catch (error) {
      if (!(error instanceof CardsBusy)) request.log.error({ err: error }, "a card could not be drawn");
      reply
        .removeHeader("cache-control")
        .removeHeader("etag")
        .header("retry-after", error instanceof CardsBusy ? "2" : "5");
      return problem(
        reply,
        503,
        error instanceof CardsBusy ? error.message : "The card cannot be made right now. Try again in a moment.",
      );
    }
    return reply
      .code(200)
      .header("content-type", "image/jpeg")
      .header("content-length", String(bytes.length))
      .send(bytes);
  });
  return maker;
}
