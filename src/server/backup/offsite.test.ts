import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import { createServer as createTcpServer, type AddressInfo, type Socket } from "node:net";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig } from "../config.ts";
import { BucketUrlError, OffsiteError, openBucket, parseBucketUrl, type Bucket } from "./offsite.ts";

// The bucket is a real S3-compatible server: s3rver (its file store in a temporary folder), behind a
// front that checks each request's AWS Signature Version 4 as S3 does, which s3rver does not (it
// checks only that the access key id exists). So a wrong secret is refused here as by a real
// service, and every other test proves the client signs correctly with the percent-decoded secret.

type S3rverInstance = { callback(): RequestListener; configureBuckets(): Promise<void> };
type S3rverClass = new (options: {
  address?: string;
  port?: number;
  silent?: boolean;
  directory: string;
  configureBuckets?: { name: string }[];
}) => S3rverInstance;
const require = createRequire(import.meta.url);
const S3rver = require("s3rver") as S3rverClass;

// s3rver 3.7.1 (the last) makes ListObjectsV2's continuation tokens with DES, which OpenSSL 3
// (Node 17 and later) no longer has, so every list of more than one page failed with a 500. For
// the time of this file, "des" is an identity cipher: the token is the last key in plain text.
const nodeCrypto = require("node:crypto") as typeof import("node:crypto");
const { createCipheriv, createDecipheriv } = nodeCrypto;
const plainDes = (algorithm: string) => algorithm.toLowerCase() === "des";
const identity = { update: (data: Buffer | string) => Buffer.from(data), final: () => Buffer.alloc(0) };

/** s3rver knows only this access key id; the front decides its secret. */
const KEY_ID = "S3RVER";
/** A secret with every character that must be percent-encoded in the URL. */
const SECRET = "wJal/rXUt+nFEMI:K7MD@ENG%bPxRfiCY";

const sha256 = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();
/** RFC 3986 encoding, as SigV4 wants it. */
const strict = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Why SigV4 refuses the request, or null when its signature is right. */
function signatureProblem(req: IncomingMessage): { code: string; message: string } | null {
  const header = req.headers.authorization ?? "";
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return { code: "AccessDenied", message: "not signed with AWS Signature Version 4" };
  const [, keyId, date, region, signedHeaders, signature] = match as unknown as string[];
  if (keyId !== KEY_ID)
    return { code: "InvalidAccessKeyId", message: "The AWS Access Key Id you provided does not exist" };
  const [rawPath = "", rawQuery = ""] = (req.url ?? "").split("?");
  const query = rawQuery
    .split("&")
    .filter(Boolean)
    .map((pair) => {
      const [name = "", value = ""] = pair.split("=");
      return [strict(decodeURIComponent(name)), strict(decodeURIComponent(value))] as const;
    })
    .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
  const headers = signedHeaders!
    .split(";")
    .map(
      (name) =>
        `${name}:${String(req.headers[name] ?? "")
          .trim()
          .replace(/\s+/g, " ")}\n`,
    )
    .join("");
  const canonical = [req.method, rawPath, query, headers, signedHeaders, req.headers["x-amz-content-sha256"]].join(
    "\n",
  );
  const scope = `${date}/${region}/s3/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", req.headers["x-amz-date"], scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${SECRET}`, date!), region!), "s3"), "aws4_request");
  if (createHmac("sha256", key).update(toSign).digest("hex") !== signature) {
    return { code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match" };
  }
  return null;
}

/** One request as the front saw it. */
type Seen = { method: string; url: string; headers: IncomingMessage["headers"] };

let storeDir: string;
let filesDir: string;
let server: Server;
let endpoint: string;
const seen: Seen[] = [];
/** The front answers this many of the next PUTs 500, as a service having a bad moment. */
let failingPuts = 0;
const opened: Bucket[] = [];

function front(app: RequestListener): RequestListener {
  return (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? "", url: req.url ?? "", headers: req.headers });
    const problem =
      req.method === "PUT" && failingPuts > 0
        ? (failingPuts--, { code: "InternalError", message: "We encountered an internal error. Please try again." })
        : signatureProblem(req);
    if (!problem) return app(req, res);
    // Read the body first, as S3 does, so that the client gets the answer rather than a reset.
    req.resume();
    req.on("end", () => {
      res.writeHead(problem.code === "InternalError" ? 500 : 403, { "content-type": "application/xml" });
      res.end(`<?xml version="1.0" encoding="UTF-8"?>
<Error><Code>${problem.code}</Code><Message>${problem.message}</Message></Error>`);
    });
  };
}

const listen = (target: Server | ReturnType<typeof createTcpServer>) =>
  new Promise<number>((resolve) =>
    target.listen(0, "127.0.0.1", () => resolve((target.address() as AddressInfo).port)),
  );

/** A bucket at the test's server: this prefix, this secret. */
function bucketAt(prefix: string, options: Parameters<typeof openBucket>[1] = {}, secret = SECRET): Bucket {
  const bucket = openBucket(
    `${endpoint.replace("://", `://${KEY_ID}:${encodeURIComponent(secret)}@`)}/backups${prefix}`,
    {
      retryDelayMs: 10,
      ...options,
    },
  );
  opened.push(bucket);
  return bucket;
}

async function fileOf(name: string, data: Buffer | string): Promise<string> {
  const file = path.join(filesDir, name);
  await writeFile(file, data);
  return file;
}

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  Object.assign(nodeCrypto, {
    createCipheriv: (algorithm: string, ...rest: unknown[]) =>
      plainDes(algorithm) ? identity : (createCipheriv as (...args: unknown[]) => unknown)(algorithm, ...rest),
    createDecipheriv: (algorithm: string, ...rest: unknown[]) =>
      plainDes(algorithm) ? identity : (createDecipheriv as (...args: unknown[]) => unknown)(algorithm, ...rest),
  });
  storeDir = await mkdtemp(path.join(tmpdir(), "offsite-s3rver-"));
  filesDir = await mkdtemp(path.join(tmpdir(), "offsite-files-"));
  const s3rver = new S3rver({ silent: true, directory: storeDir, configureBuckets: [{ name: "backups" }] });
  await s3rver.configureBuckets();
  server = createServer(front(s3rver.callback()));
  endpoint = `http://127.0.0.1:${await listen(server)}`;
});

afterAll(async () => {
  Object.assign(nodeCrypto, { createCipheriv, createDecipheriv });
  for (const bucket of opened) bucket.close();
  await new Promise((resolve) => server?.close(resolve));
  server?.closeAllConnections();
  await rm(storeDir, { recursive: true, force: true });
  await rm(filesDir, { recursive: true, force: true });
});

describe("parseBucketUrl", () => {
  it("reads an AWS bucket from s3://, with or without credentials and region", () => {
    const aws = parseBucketUrl("s3://sabarmati-backups/site/daily?region=ap-south-1");
    expect(aws).toMatchObject({
      endpoint: undefined,
      bucket: "sabarmati-backups",
      prefix: "site/daily/",
      region: "ap-south-1",
      accessKeyId: undefined,
    });
    expect(aws.credentials()).toBeUndefined();
    const chain = parseBucketUrl("s3://sabarmati-backups");
    expect(chain).toMatchObject({ bucket: "sabarmati-backups", prefix: "", region: undefined });

    const keyed = parseBucketUrl(`s3://AKIAEXAMPLE:${encodeURIComponent(SECRET)}@sabarmati-backups/site/`);
    expect(keyed.credentials()).toEqual({ accessKeyId: "AKIAEXAMPLE", secretAccessKey: SECRET });
    expect(keyed.prefix).toBe("site/");
  });

  it("reads an endpoint from https:// and http://, with the region of the known providers", () => {
    expect(parseBucketUrl("https://k:s@0123abcd.r2.cloudflarestorage.com/backups")).toMatchObject({
      endpoint: "https://0123abcd.r2.cloudflarestorage.com",
      bucket: "backups",
      prefix: "",
      region: "auto",
    });
    expect(parseBucketUrl("https://s3.us-west-004.backblazeb2.com/sabarmati-site/archives")).toMatchObject({
      endpoint: "https://s3.us-west-004.backblazeb2.com",
      bucket: "sabarmati-site",
      prefix: "archives/",
      region: "us-west-004",
    });
    expect(parseBucketUrl("http://minio.internal:9000/backups/a%20b/c/")).toMatchObject({
      endpoint: "http://minio.internal:9000",
      prefix: "a b/c/",
      region: "us-east-1",
    });
    expect(parseBucketUrl("https://s3.ap-south-1.amazonaws.com/backups").region).toBe("ap-south-1");
    expect(parseBucketUrl("https://0123abcd.r2.cloudflarestorage.com/backups?region=eu").region).toBe("eu");
    expect(parseBucketUrl("http://[::1]:9000/backups").endpoint).toBe("http://[::1]:9000");
  });

  it("refuses what it cannot use, saying what is wrong and never the secret", () => {
    const cases: [string, RegExp][] = [
      ["not a url", /is not a URL/],
      ["ftp://host/bucket", /must start with s3:\/\/, https:\/\/ or http:\/\/, not ftp:\/\//],
      ["s3://", /names no bucket/],
      ["https://host.example", /names no bucket/],
      ["https://host.example/", /names no bucket/],
      ["s3://Backups", /not a bucket name/],
      ["https://h.example/ab", /not a bucket name/],
      ["s3://backups:9000/x", /has a port/],
      ["s3://backups?regoin=eu", /unknown parameter \?regoin=/],
      ["s3://backups?region=EU WEST", /region/],
      ["s3://backups#x", /fragment/],
      ["s3://backups/a//b", /empty/],
      ["https://AKIA@h.example/backups", /access key id but no secret/],
      ["https://:topsecret1@h.example/backups", /secret but no access key id/],
      // A / in the secret not written %2F: the rest of the secret ends up in the path.
      ["https://AKIA:12/topsecret1@h.example/backups", /has an @ after the host/],
      ["https://AKIA:top/secret1@h.example/backups", /is not a URL/],
      ["https://AKIA:topsecret1%zz@h.example/backups", /broken %-escape in its secret/],
    ];
    for (const [text, message] of cases) {
      let error: unknown;
      try {
        parseBucketUrl(text);
      } catch (caught) {
        error = caught;
      }
      expect(error, text).toBeInstanceOf(BucketUrlError);
      expect((error as Error).message, text).toMatch(/^BACKUP_S3_URL /);
      expect((error as Error).message, text).toMatch(message);
      expect((error as Error).message, text).not.toMatch(/topsecret1|secret1/);
    }
  });

  it("keeps the secret out of logs: JSON, inspect and toString show ***", () => {
    const url = parseBucketUrl(`https://AKIAEXAMPLE:${encodeURIComponent(SECRET)}@h.example/backups/site`);
    for (const shown of [JSON.stringify(url), inspect(url, { depth: 5 }), String(url), url.display]) {
      expect(shown).not.toContain("wJal");
    }
    expect(String(url)).toBe("https://AKIAEXAMPLE:***@h.example/backups/site/");
  });

  it("is the setting BACKUP_S3_URL: parsed when set, the start stopped with its name when wrong", () => {
    expect(parseConfig({}).backup.s3).toBeUndefined();
    expect(parseConfig({ BACKUP_S3_URL: "s3://sabarmati-backups/site" }).backup.s3).toMatchObject({
      bucket: "sabarmati-backups",
      prefix: "site/",
    });
    expect(() => parseConfig({ BACKUP_S3_URL: "https://AKIA:topsecret1@h.example" })).toThrow(
      /^Invalid configuration: BACKUP_S3_URL names no bucket/,
    );
    expect(() => parseConfig({ BACKUP_S3_URL: "https://AKIA:topsecret1@h.example" })).not.toThrow(/topsecret1/);
  });
});

describe("openBucket against an S3-compatible server", () => {
  it("uploads a file of a few MB and gives back the same bytes, in one PUT and in parts", async () => {
    const data = randomBytes(5 * 1024 * 1024 + 123);
    const file = await fileOf("big.bin", data);
    const bucket = bucketAt("/put");
    const before = seen.length;
    await bucket.put("site-2026-11-29T023000Z.tar.gz", file);
    const put = seen.slice(before).find((request) => request.method === "PUT");
    expect(put?.url.split("?")[0]).toBe("/backups/put/site-2026-11-29T023000Z.tar.gz");
    // Streamed with its length, and with no checksum headers that compatible services refuse.
    expect(put?.headers["content-length"]).toBe(String(data.length));
    expect(put?.headers["transfer-encoding"]).toBeUndefined();
    expect(Object.keys(put?.headers ?? {}).filter((name) => name.includes("checksum"))).toEqual([]);
    expect(sha256(await bytesOf(await bucket.get("site-2026-11-29T023000Z.tar.gz")))).toBe(sha256(data));

    // In parts of 1 MiB: six parts, the last short.
    const parted = bucketAt("/put", { partSize: 1024 * 1024 });
    const start = seen.length;
    await parted.put("site-2026-11-30T023000Z.tar.gz.enc", file);
    const parts = seen.slice(start).filter((request) => request.method === "PUT");
    expect(parts.map((request) => request.headers["content-length"])).toEqual([
      ...Array(5).fill(String(1024 * 1024)),
      String(data.length - 5 * 1024 * 1024),
    ]);
    expect(parts.every((request) => /[?&]uploadId=/.test(request.url))).toBe(true);
    expect(
      parts.flatMap((request) => Object.keys(request.headers)).filter((name) => name.includes("checksum")),
    ).toEqual([]);
    expect(sha256(await bytesOf(await parted.get("site-2026-11-30T023000Z.tar.gz.enc")))).toBe(sha256(data));
    expect(await bucket.list()).toEqual(["site-2026-11-29T023000Z.tar.gz", "site-2026-11-30T023000Z.tar.gz.enc"]);

    // A PUT that fails on the service's side is sent again, from the start of the file.
    failingPuts = 1;
    const retried = seen.length;
    await bucket.put("site-2026-12-01T023000Z.tar.gz", file);
    expect(seen.slice(retried).filter((request) => request.method === "PUT")).toHaveLength(2);
    expect(sha256(await bytesOf(await bucket.get("site-2026-12-01T023000Z.tar.gz")))).toBe(sha256(data));
    failingPuts = 3;
    await expect(bucket.put("site-2026-12-02T023000Z.tar.gz", file)).rejects.toThrow(
      /uploading site-2026-12-02T023000Z\.tar\.gz .* failed: InternalError \(HTTP 500\)/,
    );
    expect(failingPuts).toBe(0);
    expect(await bucket.list()).not.toContain("site-2026-12-02T023000Z.tar.gz");
    await bucket.remove("site-2026-12-01T023000Z.tar.gz");

    // An empty file is an object too.
    await bucket.put("empty", await fileOf("empty", ""));
    expect((await bytesOf(await bucket.get("empty"))).length).toBe(0);
  });

  it("lists only the names under its prefix, through every page", async () => {
    const small = await fileOf("small.txt", "x");
    const names = Array.from({ length: 7 }, (_, i) => `site-2026-11-2${i}T023000Z.tar.gz`);
    const writer = bucketAt("/list/site");
    for (const name of names) await writer.put(name, small);
    // Beside and below the prefix: not listed.
    await bucketAt("/list").put("site-outside.tar.gz", small);
    await bucketAt("/list/site/older").put("nested.tar.gz", small);
    await bucketAt("/list/sites").put("similar.tar.gz", small);

    const paged = bucketAt("/list/site", { pageSize: 2 });
    const before = seen.length;
    expect(await paged.list()).toEqual(names);
    const pages = seen
      .slice(before)
      .filter((request) => request.method === "GET" && request.url.includes("list-type=2"));
    // 7 names in pages of 2 (s3rver does not count the folder older/ in a page; S3 does).
    expect(pages.length).toBeGreaterThanOrEqual(4);
    expect(pages.slice(1).every((request) => request.url.includes("continuation-token="))).toBe(true);
    expect(await bucketAt("/list/nothing-here").list()).toEqual([]);
  });

  it("removes one name, and a name that is not there is no error", async () => {
    const bucket = bucketAt("/remove");
    await bucket.put("a", await fileOf("a", "a"));
    await bucket.put("b", await fileOf("b", "b"));
    await bucket.remove("a");
    await bucket.remove("never-was");
    expect(await bucket.list()).toEqual(["b"]);
    await expect(bucket.get("a")).rejects.toThrow(
      /downloading a in bucket "backups" at http:\/\/127\.0\.0\.1:\d+ failed: there is no such object/,
    );
    await expect(bucket.remove("../b")).rejects.toThrow(OffsiteError);
  });

  it("applies the keeping rules to the bucket and returns what it deleted", async () => {
    const small = await fileOf("archive", "archive");
    const bucket = bucketAt("/keeping", { pageSize: 3 });
    const names = [
      "erasures.json",
      "site-2026-11-29T023000Z.tar.gz.part",
      "site-2025-06-01T023000Z.tar.gz", // over a year old
      "site-2026-11-15T023000Z.tar.gz", // newest of its week, but only one week kept
      "site-2026-11-27T023000Z.tar.gz", // older of two on the 27th
      "site-2026-11-27T190000Z.tar.gz.enc", // 00:30 on the 28th in India
      "site-2026-11-28T023000Z.tar.gz",
      "site-2026-11-29T023000Z.tar.gz",
    ];
    for (const name of names) await bucket.put(name, small);
    const deleted = await bucket.applyKeeping(
      { keepDaily: 2, keepWeekly: 1, maxAgeDays: 365 },
      new Date("2026-11-29T03:00:00Z"),
    );
    expect(deleted.sort()).toEqual([
      "site-2025-06-01T023000Z.tar.gz",
      "site-2026-11-15T023000Z.tar.gz",
      "site-2026-11-27T023000Z.tar.gz",
      "site-2026-11-27T190000Z.tar.gz.enc",
    ]);
    expect(await bucket.list()).toEqual([
      "erasures.json",
      "site-2026-11-28T023000Z.tar.gz",
      "site-2026-11-29T023000Z.tar.gz",
      "site-2026-11-29T023000Z.tar.gz.part",
    ]);
    expect(
      await bucket.applyKeeping({ keepDaily: 2, keepWeekly: 1, maxAgeDays: 365 }, new Date("2026-11-29T03:00:00Z")),
    ).toEqual([]);
  });

  it("says plainly when the secret or the key id is wrong, without showing the secret", async () => {
    const wrong = "Wr0ng/secret+value";
    const bucket = bucketAt("/auth", {}, wrong);
    const error = (await bucket.list().then(
      () => undefined,
      (caught: unknown) => caught,
    )) as Error;
    expect(error).toBeInstanceOf(OffsiteError);
    expect(error.message).toMatch(
      /listing the archives in bucket "backups" at http:\/\/127\.0\.0\.1:\d+ failed: the service refused the secret \(SignatureDoesNotMatch\)/,
    );
    expect(`${error.message} ${inspect(error)}`).not.toMatch(/Wr0ng|wJal/);
    await expect(bucket.put("x", await fileOf("x", "x"))).rejects.toThrow(/refused the secret/);

    const unknown = openBucket(`${endpoint.replace("://", "://NOBODY:whatever@")}/backups`, { retryDelayMs: 10 });
    opened.push(unknown);
    await expect(unknown.list()).rejects.toThrow(/does not know the access key id \(InvalidAccessKeyId\)/);
    const missing = openBucket(
      `${endpoint.replace("://", `://${KEY_ID}:${encodeURIComponent(SECRET)}@`)}/no-such-bucket`,
    );
    opened.push(missing);
    await expect(missing.list()).rejects.toThrow(/there is no bucket "no-such-bucket" there/);
  });

  it("fails within its timeout when nothing listens, or when the server never answers", async () => {
    // A port nothing listens on.
    const probe = createTcpServer();
    const port = await listen(probe);
    await new Promise((resolve) => probe.close(resolve));
    const refused = openBucket(`http://${KEY_ID}:x@127.0.0.1:${port}/backups`, {
      connectTimeoutMs: 1000,
      attempts: 2,
      retryDelayMs: 10,
    });
    opened.push(refused);
    let started = Date.now();
    await expect(refused.list()).rejects.toThrow(
      /nothing is listening at http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/,
    );
    await expect(refused.put("x", await fileOf("x", "x"))).rejects.toThrow(/connection refused/);
    expect(Date.now() - started).toBeLessThan(4000);

    // A server that takes the connection and never says a word: a dead bucket.
    const sockets = new Set<Socket>();
    const silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.resume();
    });
    const silentPort = await listen(silent);
    try {
      const options = { idleTimeoutMs: 200, callTimeoutMs: 800, attempts: 2, retryDelayMs: 10 };
      const dead = openBucket(`http://${KEY_ID}:x@127.0.0.1:${silentPort}/backups`, options);
      opened.push(dead);
      started = Date.now();
      await expect(dead.list()).rejects.toThrow(
        /listing the archives in bucket "backups" at http:\/\/127\.0\.0\.1:\d+ failed: no answer/,
      );
      // Two attempts of 200 ms each; the margin is for a busy machine.
      expect(Date.now() - started).toBeLessThan(800 + 3000);
      started = Date.now();
      await expect(dead.put("x", await fileOf("x", "x"))).rejects.toThrow(/uploading x .* failed: no answer/);
      expect(Date.now() - started).toBeLessThan(2 * 200 + 3000);
      // The whole-call limit, when each request keeps within the idle one.
      const slow = openBucket(`http://${KEY_ID}:x@127.0.0.1:${silentPort}/backups`, {
        ...options,
        idleTimeoutMs: 10_000,
      });
      opened.push(slow);
      started = Date.now();
      await expect(slow.get("x")).rejects.toThrow(/no complete answer within 800 ms/);
      expect(Date.now() - started).toBeLessThan(800 + 3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });
});
