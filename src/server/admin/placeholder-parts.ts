import type { FastifyReply, FastifyRequest } from "fastify";
import type { AdminPart } from "./admin-context.ts";

// The pages the navigation names before their parts exist: each says what is coming.

export const placeholderParts: AdminPart = (admin, context) => {
  const placeholder = (title: string, text: string) => async (request: FastifyRequest, reply: FastifyReply) =>
    context.render(reply, { page: "placeholder", viewer: context.viewerOf(context.sessionOf(request)), title, text });
  admin.get("/analytics", context.route("staff"), placeholder("Analytics", "Visitor analytics are being built."));
};
