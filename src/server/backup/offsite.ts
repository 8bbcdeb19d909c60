// The off-site copy of the backup archives: a bucket on AWS S3 or any S3-compatible service
// (Cloudflare R2, Backblaze B2, MinIO), named by BACKUP_S3_URL (bucket-url.ts), kept by the same
// rules as BACKUP_DIR (keeping.ts).

import { createReadStream, type ReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";
import { parseBucketUrl, type BucketUrl } from "./bucket-url.ts";
import { archivesToDelete, type KeepingRules } from "./keeping.ts";

export { BucketUrlError, parseBucketUrl, type BucketUrl } from "./bucket-url.ts";

export type BucketOptions = {
  /** A connection must be made within this. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * A request on which no byte moves, either way, for this long fails: what stops a dead or
   * stalled bucket in the middle of an upload or a download of any size. Default 60 s.
   */
  idleTimeoutMs?: number;
  /**
   * The longest a call without an archive's bytes in it may take, retries included: a list page, a
   * delete, starting and finishing a multipart upload, a download until its first byte. Default
   * 2 minutes. Uploads have no such limit (a large archive over a slow line takes as long as it
   * takes), only the two above.
   */
  callTimeoutMs?: number;
  /** Attempts at each request, the first included, when the failure may pass (the network, a 5xx, 429). Default 3. */
  attempts?: number;
  /** The wait before an upload's second attempt, doubled for each further one. Default 1 s. */
  retryDelayMs?: number;
  /** Names asked for in one list request (ListObjectsV2's MaxKeys, at most 1000). Default 1000. */
  pageSize?: number;
  /**
   * An archive larger than this goes up in parts of this size (a multipart upload: one PUT may
   * carry at most 5 GB, and a failed part is sent again alone). Default 64 MiB; raised for very
   * large files so that they take at most 10,000 parts. Services want parts of at least 5 MiB.
   */
  partSize?: number;
};

export type Bucket = {
  /** BACKUP_S3_URL with the secret hidden: for logs and messages. */
  readonly display: string;
  /**
   * Uploads the file `filePath` as `name` under the prefix, streaming it from the disk (never whole
   * in memory). The object appears only once it is complete: a failed upload leaves nothing, or
   * an unfinished multipart upload the service drops by itself if told to (see docs/operations.md).
   */
  put(name: string, filePath: string): Promise<void>;
  /** The names directly under the prefix (not in folders below it), sorted. */
  list(): Promise<string[]>;
  /** Deletes `name` under the prefix; deleting a name that is not there is no error. */
  remove(name: string): Promise<void>;
  /** The bytes of `name` as a stream, for a restore. Fails when the name is not there. */
  get(name: string): Promise<Readable>;
  /**
   * Deletes the archives under the prefix that the keeping rules (keeping.ts, archivesToDelete)
   * delete at `now`, and returns their names. Names that are not archives are never touched. When
   * some deletes fail the others are still made, and an OffsiteError says which failed.
   */
  applyKeeping(rules: KeepingRules, now?: Date): Promise<string[]>;
  /** Closes the client's idle connections. */
  close(): void;
};

/** A bucket operation that failed; the message says what and why, never the secret. */
export class OffsiteError extends Error {
  constructor(
    message: string,
    options?: { cause?: unknown },
    /** applyKeeping: the names it did delete before reporting the ones it could not. */
    readonly deleted: string[] = [],
  ) {
    super(message, options);
    this.name = "OffsiteError";
  }
}

const MiB = 1024 * 1024;
/** S3's limit on the parts of one multipart upload. */
const MAX_PARTS = 10_000;

/** The SDK logs through this (it would use console otherwise); the errors it reports are thrown to the caller. */
const quietLogger = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };

type ErrorLike = {
  name?: string;
  code?: string;
  message?: string;
  $metadata?: { httpStatusCode?: number };
  cause?: unknown;
};

/** A failure worth another attempt: the network, a timeout, the service's 5xx, throttling. */
function mayPass(error: unknown): boolean {
  const e = error as ErrorLike;
  const status = e.$metadata?.httpStatusCode;
  if (status !== undefined) return status >= 500 || status === 429 || status === 408;
  return !(e.name === "AbortError" || e.name === "CredentialsProviderError");
}

/** A name under the prefix: one path segment, as list() returns them. */
function checkName(name: string): void {
  if (!name || name === "." || name === ".." || name.includes("/")) {
    throw new OffsiteError(`Off-site backup: "${name}" is not a name for an archive in the bucket (no /, not empty)`);
  }
}

/**
 * The bucket BACKUP_S3_URL names, through the AWS SDK configured for S3-compatible services too:
 * path-style addressing at a custom endpoint (R2, B2 and MinIO do not all resolve
 * bucket.host names), and checksums only where the API requires them (SDK 3.729 and later add
 * CRC32 headers and trailers to every upload by default, which several compatible services
 * refuse). Every request is bounded: see BucketOptions.
 */
export function openBucket(url: BucketUrl | string, options: BucketOptions = {}): Bucket {
  const target = typeof url === "string" ? parseBucketUrl(url) : url;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 60_000;
  const callTimeoutMs = options.callTimeoutMs ?? 120_000;
  const attempts = Math.max(1, options.attempts ?? 3);
  const retryDelayMs = options.retryDelayMs ?? 1000;
  const pageSize = Math.min(1000, Math.max(1, options.pageSize ?? 1000));
  const partSize = Math.max(1, options.partSize ?? 64 * MiB);
  const { bucket, prefix } = target;
  const where = target.endpoint ? `bucket "${bucket}" at ${target.endpoint}` : `bucket "${bucket}" on AWS S3`;

  const client = new S3Client({
    ...(target.endpoint ? { endpoint: target.endpoint, forcePathStyle: true } : { followRegionRedirects: true }),
    ...(target.region ? { region: target.region } : {}),
    ...(target.credentials() ? { credentials: target.credentials() } : {}),
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    maxAttempts: attempts,
    logger: quietLogger,
    requestHandler: {
      connectionTimeout: connectTimeoutMs,
      socketTimeout: idleTimeoutMs,
      logger: quietLogger,
    },
  });

  /** The error to throw for a failed `doing` (e.g. "uploading x"): what, where, and why in plain words. */
  const failure = (doing: string, error: unknown, timedOut = false): OffsiteError => {
    const e = (error ?? {}) as ErrorLike;
    const status = e.$metadata?.httpStatusCode;
    const code = e.code ?? (e.cause as ErrorLike | undefined)?.code;
    const host = target.endpoint ?? "AWS S3";
    let why: string;
    if (timedOut) why = `no complete answer within ${callTimeoutMs} ms`;
    else if (e.name === "SignatureDoesNotMatch")
      why = "the service refused the secret (SignatureDoesNotMatch): check the secret access key in BACKUP_S3_URL";
    else if (e.name === "InvalidAccessKeyId")
      why = "the service does not know the access key id (InvalidAccessKeyId): check BACKUP_S3_URL";
    else if (e.name === "AccessDenied" || status === 403)
      why = `access denied (${e.name ?? 403}): the key may not do this in this bucket, or its secret is wrong`;
    else if (e.name === "NoSuchBucket") why = `there is no bucket "${bucket}" there`;
    else if (e.name === "NoSuchKey" || (status === 404 && doing.startsWith("downloading")))
      why = "there is no such object";
    else if (e.name === "CredentialsProviderError")
      why =
        "no credentials: give KEY_ID:SECRET in BACKUP_S3_URL, or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or a role";
    else if (/region is missing/i.test(e.message ?? ""))
      why = "no region: add ?region= to BACKUP_S3_URL, or set AWS_REGION";
    else if (e.name === "TimeoutError" || code === "ETIMEDOUT")
      why = `no answer from ${host} in time (connect ${connectTimeoutMs} ms, idle ${idleTimeoutMs} ms): ${e.message}`;
    else if (code === "ECONNREFUSED") why = `nothing is listening at ${host} (connection refused)`;
    else if (code === "ENOTFOUND" || code === "EAI_AGAIN") why = `the host of ${host} was not found (${code})`;
    else if (code === "ECONNRESET" || code === "EPIPE") why = `${host} closed the connection (${code})`;
    else why = `${e.name ?? "Error"}${status ? ` (HTTP ${status})` : ""}: ${e.message ?? String(error)}`;
    return new OffsiteError(`Off-site backup: ${doing} in ${where} failed: ${why}`, { cause: error });
  };

  /**
   * Runs one SDK call with its deadline (callTimeoutMs, the SDK's retries included). The deadline
   * ends when the call returns: a download's body is then bounded by idleTimeoutMs alone.
   */
  const bounded = async <T>(doing: string, call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> => {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), callTimeoutMs);
    try {
      return await call(controller.signal);
    } catch (error) {
      throw failure(doing, error, controller.signal.aborted);
    } finally {
      clearTimeout(timer);
    }
  };

  /**
   * Sends a request whose body is read from the file (one PUT, or a part), with attempts of its
   * own: the SDK does not retry a streamed body, since it cannot read the stream again; each
   * attempt here opens the file afresh.
   */
  const withFreshStream = async <T>(
    doing: string,
    open: () => ReadStream,
    send: (body: ReadStream) => Promise<T>,
  ): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const body = open();
      try {
        return await send(body);
      } catch (error) {
        if (attempt >= attempts || !mayPass(error)) throw failure(doing, error);
        await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** (attempt - 1)));
      } finally {
        body.destroy();
      }
    }
  };

  const put = async (name: string, filePath: string): Promise<void> => {
    checkName(name);
    const key = prefix + name;
    const { size } = await stat(filePath);
    const doing = `uploading ${name}`;
    if (size <= partSize) {
      await withFreshStream(
        doing,
        () => createReadStream(filePath),
        (body) => client.send(new PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentLength: size })),
      );
      return;
    }

    const part = Math.max(partSize, Math.ceil(size / MAX_PARTS));
    const created = await bounded(doing, (abortSignal) =>
      client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: key }), { abortSignal }),
    );
    const uploadId = created.UploadId;
    if (!uploadId)
      throw new OffsiteError(`Off-site backup: ${doing} in ${where} failed: the service gave no upload id`);
    try {
      const parts: { PartNumber: number; ETag: string | undefined }[] = [];
      for (let number = 1, start = 0; start < size; number++, start += part) {
        const end = Math.min(size, start + part);
        const result = await withFreshStream(
          `${doing} (part ${number})`,
          () => createReadStream(filePath, { start, end: end - 1 }),
          (body) =>
            client.send(
              new UploadPartCommand({
                Bucket: bucket,
                Key: key,
                UploadId: uploadId,
                PartNumber: number,
                Body: body,
                ContentLength: end - start,
              }),
            ),
        );
        parts.push({ PartNumber: number, ETag: result.ETag });
      }
      await bounded(doing, (abortSignal) =>
        client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: key,
            UploadId: uploadId,
            MultipartUpload: { Parts: parts },
          }),
          { abortSignal },
        ),
      );
    } catch (error) {
      // Best effort: a service that keeps the parts anyway drops them by its lifecycle rule.
      await bounded(`abandoning the upload of ${name}`, (abortSignal) =>
        client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }), {
          abortSignal,
        }),
      ).catch(() => {});
      throw error;
    }
  };

  const list = async (): Promise<string[]> => {
    const names: string[] = [];
    let token: string | undefined;
    do {
      const page = await bounded("listing the archives", (abortSignal) =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix || undefined,
            Delimiter: "/",
            MaxKeys: pageSize,
            ContinuationToken: token,
          }),
          { abortSignal },
        ),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key?.startsWith(prefix) && object.Key.length > prefix.length) {
          names.push(object.Key.slice(prefix.length));
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return names.sort();
  };

  const remove = async (name: string): Promise<void> => {
    checkName(name);
    await bounded(`deleting ${name}`, (abortSignal) =>
      client.send(new DeleteObjectCommand({ Bucket: bucket, Key: prefix + name }), { abortSignal }),
    );
  };

  const get = async (name: string): Promise<Readable> => {
    checkName(name);
    const doing = `downloading ${name}`;
    const response = await bounded(doing, (abortSignal) =>
      client.send(new GetObjectCommand({ Bucket: bucket, Key: prefix + name }), { abortSignal }),
    );
    const body = response.Body;
    if (!(body instanceof Readable)) {
      throw new OffsiteError(`Off-site backup: ${doing} in ${where} failed: the answer had no body to read`);
    }
    return body;
  };

  const applyKeeping = async (rules: KeepingRules, now: Date = new Date()): Promise<string[]> => {
    const doomed = archivesToDelete(await list(), now, rules);
    const deleted: string[] = [];
    const failed: OffsiteError[] = [];
    for (const name of doomed) {
      try {
        await remove(name);
        deleted.push(name);
      } catch (error) {
        failed.push(error as OffsiteError);
      }
    }
    if (failed.length > 0) {
      throw new OffsiteError(
        `Off-site backup: ${failed.length} of ${doomed.length} old archives could not be deleted; the first: ${failed[0]!.message}`,
        { cause: failed[0] },
        deleted,
      );
    }
    return deleted;
  };

  return {
    display: target.display,
    put,
    list,
    remove,
    get,
    applyKeeping,
    close: () => client.destroy(),
  };
}
