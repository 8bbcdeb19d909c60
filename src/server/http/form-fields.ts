import { Transform } from "node:stream";
import type { FastifyInstance } from "fastify";

// A URL-encoded body becomes an object with a property per field, which every form then reads
// again (its schema, the values shown again after a refusal): the work grows with the number of
// fields, which the body limit alone let reach 130,000 on the studio's 1 MB routes, and a post of
// that many empty fields held the event loop 1 to 2 seconds (the event-loop kit,
// src/server/admin/event-loop.test.ts). No form of the site has more than a few dozen fields, so
// a body with more than FORM_FIELDS_MAX is refused while it arrives, before it is parsed: its
// fields are counted by their separators as the bytes go by, whatever parses them after.

/** The most fields a URL-encoded body may have. */
export const FORM_FIELDS_MAX = 1000;

export const TOO_MANY_FIELDS = `The form has more than ${FORM_FIELDS_MAX.toLocaleString("en")} fields.`;

const AMPERSAND = 0x26;

const isForm = (contentType: string | undefined) =>
  (contentType ?? "").split(";")[0]!.trim().toLowerCase() === "application/x-www-form-urlencoded";

/** Refuses (413, naming the rule) a URL-encoded body of more than FORM_FIELDS_MAX fields, before it is parsed. */
export function limitFormFields(app: FastifyInstance): void {
  app.addHook("preParsing", async (request, _reply, payload) => {
    if (!isForm(request.headers["content-type"])) return payload;
    let fields = 1;
    const counted = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        for (let at = chunk.indexOf(AMPERSAND); at !== -1; at = chunk.indexOf(AMPERSAND, at + 1)) fields += 1;
        if (fields > FORM_FIELDS_MAX) callback(Object.assign(new Error(TOO_MANY_FIELDS), { statusCode: 413 }));
        else callback(null, chunk);
      },
    });
    payload.on("error", (error) => counted.destroy(error));
    return payload.pipe(counted);
  });
}
