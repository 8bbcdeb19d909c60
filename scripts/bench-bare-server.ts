import { readFileSync } from "node:fs";
import { createServer } from "node:http";

// The benchmark's ceiling: a bare node:http server in a process of its own (as the site is),
// answering every request with the bytes and content type it is given. Prints its port.
// Usage: node scripts/bench-bare-server.ts <body-file> <content-type>

const [bodyFile, contentType] = process.argv.slice(2);
if (!bodyFile || !contentType) throw new Error("usage: bench-bare-server.ts <body-file> <content-type>");
const body = readFileSync(bodyFile);
const server = createServer((_request, response) => {
  response.writeHead(200, { "content-type": contentType, "content-length": body.length });
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : "");
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
