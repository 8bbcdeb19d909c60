// BACKUP_S3_URL: where the off-site copies of the backup archives go (offsite.ts). Kept apart from
// offsite.ts so that reading the settings (config.ts) does not load the AWS SDK.

/**
 * A parsed BACKUP_S3_URL. The secret is reachable only through `credentials()`, a function, so that
 * logging or serializing this object (the configuration, an error) never shows it; `toString()` and
 * `display` give the URL with the secret replaced by `***`.
 */
export type BucketUrl = {
  /**
   * The S3-compatible server, `https://host[:port]` (or `http://`), addressed path-style
   * (`host/bucket/key`); undefined for AWS S3 itself (virtual-hosted, the SDK's endpoint for the
   * region).
   */
  endpoint: string | undefined;
  bucket: string;
  /** Where the archives go in the bucket: "" (the top) or folders ending in "/", e.g. "site/daily/". */
  prefix: string;
  /**
   * The signing region: `?region=`, else one read from a known provider's host name (AWS
   * `s3.<region>.amazonaws.com`, Backblaze `s3.<region>.backblazeb2.com`, Cloudflare R2 `auto`),
   * else `us-east-1` for another endpoint (MinIO's default). Undefined for `s3://` without
   * `?region=`: the SDK's own chain (AWS_REGION, ~/.aws/config) decides.
   */
  region: string | undefined;
  /** The access key id given in the URL, if any (not secret: it names the key). */
  accessKeyId: string | undefined;
  /** The key and secret given in the URL, or undefined: the SDK's standard chain then supplies them. */
  credentials: () => { accessKeyId: string; secretAccessKey: string } | undefined;
  /** The URL as given, with the secret replaced by `***`: safe to log. */
  display: string;
  toString(): string;
};

/** A BACKUP_S3_URL that cannot be used; `problem` is the message without the setting's name. */
export class BucketUrlError extends Error {
  constructor(readonly problem: string) {
    super(`BACKUP_S3_URL ${problem}`);
    this.name = "BucketUrlError";
  }
}

const FORMS =
  "s3://bucket/prefix for AWS S3, or https://KEY_ID:SECRET@host/bucket/prefix for another S3-compatible service";

/** Bucket names as AWS, R2, B2 and MinIO all accept them: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9][a-z0-9-]{0,62}$/;

/** The signing region a known provider's endpoint host implies. */
function regionOfHost(host: string): string | undefined {
  if (host.endsWith(".r2.cloudflarestorage.com")) return "auto";
  const backblaze = /^s3\.([a-z0-9-]+)\.backblazeb2\.com$/.exec(host);
  if (backblaze) return backblaze[1];
  const aws = /^s3[.-](?:dualstack\.)?([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com$/.exec(host);
  if (aws) return aws[1];
  return undefined;
}

function decode(text: string, what: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    // Never the text itself: it may be (part of) the secret.
    throw new BucketUrlError(`has a broken %-escape in its ${what}`);
  }
}

/**
 * Parses BACKUP_S3_URL. Two forms:
 *
 * - `s3://[KEY_ID:SECRET@]bucket[/prefix][?region=REGION]`: a bucket on AWS S3 itself, addressed
 *   the way AWS prefers (virtual-hosted). Without KEY_ID:SECRET the SDK's standard chain supplies
 *   the credentials (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, ~/.aws, an instance or task
 *   role); without `?region=`, the region (AWS_REGION, ~/.aws/config).
 * - `https://[KEY_ID:SECRET@]host[:port]/bucket[/prefix][?region=REGION]` (or `http://`, for a
 *   server on the same machine or network): any S3-compatible service at that endpoint, addressed
 *   path-style (`host/bucket/key`), which every one of them accepts: Cloudflare R2
 *   (`https://<account>.r2.cloudflarestorage.com/bucket`), Backblaze B2
 *   (`https://s3.<region>.backblazeb2.com/bucket`), MinIO (`http://minio:9000/bucket`), AWS S3 by
 *   a regional endpoint. The region defaults as BucketUrl.region says.
 *
 * KEY_ID and SECRET are percent-decoded: a secret with `/`, `+`, `@`, `:` or `%` in it (AWS
 * secrets often have `/` and `+`) is written with those as `%2F`, `%2B`, `%40`, `%3A`, `%25`. The
 * prefix is a folder path in the bucket (`/site/daily` and `/site/daily/` are the same), percent-
 * decoded too. Any other query parameter, a fragment, a key id without a secret or the reverse, and
 * a bucket name AWS would refuse are errors. The messages never repeat the URL: it may hold the
 * secret.
 */
export function parseBucketUrl(text: string): BucketUrl {
  const trimmed = text.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new BucketUrlError(
      `is not a URL: write ${FORMS} (a / or @ in the secret must be written %2F or %40, + as %2B)`,
    );
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== "s3" && scheme !== "https" && scheme !== "http") {
    const shown = /^[a-z][a-z0-9+.-]*$/.test(scheme) ? `${scheme}://` : "another scheme";
    throw new BucketUrlError(`must start with s3://, https:// or http://, not ${shown}: write ${FORMS}`);
  }
  // A key id or secret with a raw /, ? or # in it ends the host early and leaves the rest, with
  // its @, in the path, query or fragment: refuse it before any part of it is shown or used.
  if (`${url.pathname}${url.search}${url.hash}`.includes("@")) {
    throw new BucketUrlError(
      "has an @ after the host: write a /, ?, #, @ or : in the key id or secret as %2F, %3F, %23, %40 or %3A",
    );
  }
  if (url.hash) throw new BucketUrlError("must not have a #fragment");

  let region: string | undefined;
  for (const [name, value] of url.searchParams) {
    if (name !== "region") {
      throw new BucketUrlError(`has an unknown parameter ?${encodeURIComponent(name)}=: only ?region= is understood`);
    }
    if (!REGION.test(value))
      throw new BucketUrlError("has a ?region= that is not a region name (like eu-west-1 or auto)");
    region = value;
  }

  const accessKeyId = url.username ? decode(url.username, "access key id") : "";
  const secretAccessKey = url.password ? decode(url.password, "secret") : "";
  if (accessKeyId && !secretAccessKey) {
    throw new BucketUrlError("gives an access key id but no secret: write KEY_ID:SECRET@ before the host");
  }
  if (!accessKeyId && secretAccessKey) {
    throw new BucketUrlError("gives a secret but no access key id: write KEY_ID:SECRET@ before the host");
  }

  const segments = url.pathname.split("/").slice(1);
  if (segments.at(-1) === "") segments.pop();

  let endpoint: string | undefined;
  let bucket: string;
  if (scheme === "s3") {
    if (!url.hostname) throw new BucketUrlError(`names no bucket: write ${FORMS}`);
    if (url.port) {
      throw new BucketUrlError(
        "has a port, but s3:// names a bucket on AWS S3: for a server of your own write https://host:port/bucket",
      );
    }
    bucket = decode(url.hostname, "bucket name");
  } else {
    if (!url.hostname) throw new BucketUrlError(`names no host: write ${FORMS}`);
    const first = segments.shift();
    if (!first)
      throw new BucketUrlError(`names no bucket: write the bucket after the host, as in ${scheme}://host/bucket`);
    bucket = decode(first, "bucket name");
    endpoint = `${scheme}://${url.host}`;
    region ??= regionOfHost(url.hostname) ?? "us-east-1";
  }
  if (!BUCKET_NAME.test(bucket) || bucket.includes("..")) {
    throw new BucketUrlError(
      "names a bucket that is not a bucket name: 3 to 63 lower-case letters, digits, dots and hyphens",
    );
  }

  const folders = segments.map((segment) => decode(segment, "prefix"));
  if (folders.some((folder) => folder === "" || folder === "." || folder === ".." || folder.includes("/"))) {
    throw new BucketUrlError("has an empty, . or .. folder (or an encoded /) in its prefix after the bucket");
  }
  const prefix = folders.map((folder) => `${folder}/`).join("");

  const credentials = accessKeyId ? { accessKeyId, secretAccessKey } : undefined;
  const where = scheme === "s3" ? `s3://${bucket}` : `${endpoint}/${bucket}`;
  const auth = accessKeyId ? `${encodeURIComponent(accessKeyId)}:***@` : "";
  const display = `${where.replace("://", `://${auth}`)}${prefix ? `/${prefix}` : ""}${url.search}`;
  return {
    endpoint,
    bucket,
    prefix,
    region,
    accessKeyId: accessKeyId || undefined,
    credentials: () => credentials,
    display,
    toString: () => display,
  };
}
