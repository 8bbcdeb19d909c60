import type { FastifyInstance } from "fastify";

// JSON.parse builds a body nested as deep as it is written, and the body limit alone let the
// studio's 1 MB routes be sent arrays nested 524,282 deep: parsing that held the event loop about
// 0.7 s (the event-loop kit, src/server/admin/event-loop.test.ts), before any schema could refuse
// it. No JSON the site takes (a studio document, a passkey's answer, a filter) nests more than a
// handful of levels, so a body nested deeper than JSON_NESTING_MAX is refused before it is parsed,
// by one pass over its characters that counts brackets outside strings.

/** The deepest a JSON body may nest its arrays and objects. */
export const JSON_NESTING_MAX = 32;

export const TOO_DEEP = `The JSON is nested more than ${JSON_NESTING_MAX} levels deep.`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** Whether `text`, read as JSON, opens more than `max` arrays and objects inside one another (invalid JSON is left to the parser). */
export function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let at = 0; at < text.length; at += 1) {
    const code = text.charCodeAt(at);
    if (inString) {
      if (code === BACKSLASH) at += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth += 1;
      if (depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/** Parses JSON bodies as Fastify does (prototype poisoning refused), after refusing one nested deeper than JSON_NESTING_MAX (400, naming the rule). */
export function limitJsonNesting(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    if (typeof body === "string" && nestsDeeperThan(body, JSON_NESTING_MAX)) {
      done(Object.assign(new Error(TOO_DEEP), { statusCode: 400 }), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}
