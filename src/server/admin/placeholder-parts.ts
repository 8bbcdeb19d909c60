import type { FastifyReply, FastifyRequest } from "fastify";
import type { AdminPart } from "./admin-context.ts";

// The pages the navigation names before their parts exist: each says what is coming.

export const placeholderParts: AdminPart = (admin, context) => {
  const placeholder = (title: string, text: string) => async (request: FastifyRequest, reply: FastifyReply) =>
    context.render(reply, { page: "placeholder", viewer: context.viewerOf(context.sessionOf(request)), title, text });
  admin.get("/", context.route("staff"), placeholder("Enquiries", "The enquiry inbox is being built. Until it is ready, enquiries reach the firm by email and through `npm run enquiries`."));
  admin.get("/subscribers", context.route("staff"), placeholder("Subscribers", "The list of newsletter subscribers is being built. Until it is ready, use `npm run subscribers`."));
};
