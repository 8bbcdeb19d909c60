import { readFileSync } from "node:fs";
import { createServer } from "node:http";

// The bench's ceiling: a bare node:http server in a process of its own (as the site is),
// answering every request with the very bytes the site sent for one: the same status, headers
// and body. Prints its port. Usage: node --import tsx scripts/bench/bare-server.ts <answer.json>
// where the file holds { status: number, headers: Record<string, string>, bodyBase64: string }.

const file = process.argv[2];
if (!file) throw new Error("usage: bare-server.ts <answer.json>");
const recorded = JSON.parse(readFileSync(file, "utf8")) as {
  status: number;
  headers: Record<string, string>;
  bodyBase64: string;
};
const body = Buffer.from(recorded.bodyBase64, "base64");
const headers = { ...recorded.headers, "content-length": String(body.length) };
const server = createServer((_request, response) => {
  response.writeHead(recorded.status, headers);
  response.end(body);
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : "");
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
