import { createHash, createHmac } from "node:crypto";
import fs from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
// s3rver ships no types; s3rver.d.ts beside this file declares the little used here.
import S3rver from "s3rver";

/**
 * An S3-compatible server for tests: npm's `s3rver` on a free loopback port, storing into a new
 * temporary directory, with one bucket created. It speaks the S3 protocol (SigV4 checked, multipart
 * create/upload/complete, ranged GET, copy, ListObjectsV2, presigned URLs) but implements neither
 * AbortMultipartUpload nor ListMultipartUploads, and it does not verify SigV4 signatures at all. This
 * helper adds both operations over s3rver's own on-disk upload directories
 * (`<bucket>/._S3rver_uploads/<uploadId>/`), so tests can check that a failed upload leaves no
 * incomplete multipart upload behind, and checks the signature and expiry of SigV4 presigned URLs
 * (query authentication), so a forged, expired or header-stripped presigned request is refused as
 * S3 would. Requests signed in the Authorization header (the SDK's own) are still not verified.
 */
export interface TestS3Server {
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The settings a Layerline process reads (BLOB_STORE=s3 …). */
  env: Record<string, string>;
  directory: string;
  close(): Promise<void>;
}

// s3rver's fixed development credentials (it checks signatures against them).
const ACCESS_KEY_ID = "S3RVER";
const SECRET_ACCESS_KEY = "S3RVER";

export async function startS3Server(opts: { bucket?: string } = {}): Promise<TestS3Server> {
  const bucket = opts.bucket ?? "layerline-test";
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), "layerline-s3-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(missingMultipartOperations(directory));
  server.middleware.unshift(presignedV4Check(SECRET_ACCESS_KEY));
  const address = (await server.run()) as AddressInfo;
  const endpoint = `http://127.0.0.1:${address.port}`;
  const region = "us-east-1";
  return {
    endpoint,
    bucket,
    region,
    accessKeyId: ACCESS_KEY_ID,
    secretAccessKey: SECRET_ACCESS_KEY,
    directory,
    env: {
      BLOB_STORE: "s3",
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: region,
      S3_FORCE_PATH_STYLE: "true",
      AWS_ACCESS_KEY_ID: ACCESS_KEY_ID,
      AWS_SECRET_ACCESS_KEY: SECRET_ACCESS_KEY,
    },
    async close() {
      await server.close();
      await fs.rm(directory, { recursive: true, force: true });
    },
  };
}

interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  req: IncomingMessage;
  res: ServerResponse;
  status: number;
  body: unknown;
  type: string;
}

function uploadsDir(root: string, bucket: string): string {
  return path.join(root, bucket, "._S3rver_uploads");
}

function xmlEscape(s: string): string {
  return s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** AbortMultipartUpload (DELETE /bucket/key?uploadId=…) and ListMultipartUploads (GET /bucket?uploads). */
function missingMultipartOperations(root: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const [bucket, ...keyParts] = ctx.path.split("/").filter(Boolean);
    const uploadId = typeof ctx.query.uploadId === "string" ? ctx.query.uploadId : undefined;
    if (ctx.method === "DELETE" && bucket && keyParts.length > 0 && uploadId) {
      if (!/^[0-9a-f]+$/.test(uploadId)) {
        ctx.status = 400;
        return;
      }
      const dir = path.join(uploadsDir(root, bucket), uploadId);
      const exists = await fs.stat(dir).then(
        () => true,
        () => false,
      );
      if (!exists) {
        ctx.status = 404;
        ctx.type = "application/xml";
        ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchUpload</Code><Message>The specified upload does not exist.</Message></Error>`;
        return;
      }
      await fs.rm(dir, { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "GET" && bucket && keyParts.length === 0 && "uploads" in ctx.query) {
      const prefix = typeof ctx.query.prefix === "string" ? ctx.query.prefix : "";
      const dir = uploadsDir(root, bucket);
      const ids = await fs.readdir(dir).catch(() => [] as string[]);
      const uploads: string[] = [];
      for (const id of ids.sort()) {
        const key = await fs.readFile(path.join(dir, id, "key"), "utf8").catch(() => null);
        if (key === null || !key.startsWith(prefix)) continue;
        const { mtime } = await fs.stat(path.join(dir, id));
        uploads.push(
          `<Upload><Key>${xmlEscape(key)}</Key><UploadId>${id}</UploadId><Initiated>${mtime.toISOString()}</Initiated></Upload>`,
        );
      }
      ctx.status = 200;
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<ListMultipartUploadsResult><Bucket>${xmlEscape(bucket)}</Bucket><Prefix>${xmlEscape(prefix)}</Prefix><MaxUploads>1000</MaxUploads><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    await next();
  };
}

function rfc3986(s: string): string {
  return encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac("sha256", key).update(data).digest();
}

function denied(ctx: KoaContext, code: string, message: string): void {
  ctx.status = 403;
  ctx.type = "application/xml";
  ctx.body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`;
}

/** Verifies SigV4 query authentication (presigned URLs) the way S3 does; s3rver accepts any signature. */
function presignedV4Check(secretAccessKey: string) {
  return async (ctx: KoaContext, next: () => Promise<void>) => {
    const rawUrl = ctx.req.url ?? "/";
    const q = rawUrl.indexOf("?");
    const rawPath = q >= 0 ? rawUrl.slice(0, q) : rawUrl;
    const pairs = (q >= 0 ? rawUrl.slice(q + 1) : "")
      .split("&")
      .filter(Boolean)
      .map((p) => {
        const eq = p.indexOf("=");
        const k = decodeURIComponent((eq >= 0 ? p.slice(0, eq) : p).replace(/\+/g, "%20"));
        const v = eq >= 0 ? decodeURIComponent(p.slice(eq + 1).replace(/\+/g, "%20")) : "";
        return [k, v] as [string, string];
      });
    const params = new Map(pairs);
    if (params.get("X-Amz-Algorithm") !== "AWS4-HMAC-SHA256") return next();
    const amzDate = params.get("X-Amz-Date") ?? "";
    const credential = params.get("X-Amz-Credential") ?? "";
    const signedHeaders = params.get("X-Amz-SignedHeaders") ?? "";
    const expires = Number(params.get("X-Amz-Expires"));
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
    if (!m) return denied(ctx, "AuthorizationQueryParametersError", "Bad X-Amz-Date.");
    const signedAt = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
    if (!(Date.now() <= signedAt + expires * 1000)) return denied(ctx, "AccessDenied", "Request has expired");
    const scope = credential.split("/").slice(1).join("/");
    const [day, region, service] = scope.split("/");
    const canonicalQuery = pairs
      .filter(([k]) => k !== "X-Amz-Signature")
      .map(([k, v]) => [rfc3986(k), rfc3986(v)])
      .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
      .map(([k, v]) => `${k}=${v}`)
      .join("&");
    const headerNames = signedHeaders.split(";");
    const canonicalHeaders = headerNames
      .map(
        (h) =>
          `${h}:${String(ctx.req.headers[h] ?? "")
            .trim()
            .replace(/\s+/g, " ")}\n`,
      )
      .join("");
    const payload = params.get("X-Amz-Content-Sha256") ?? "UNSIGNED-PAYLOAD";
    const canonicalRequest = [
      ctx.method,
      rawPath,
      canonicalQuery,
      canonicalHeaders,
      signedHeaders,
      payload,
    ].join("\n");
    const stringToSign = [
      "AWS4-HMAC-SHA256",
      amzDate,
      scope,
      createHash("sha256").update(canonicalRequest).digest("hex"),
    ].join("\n");
    const key = hmac(
      hmac(hmac(hmac(`AWS4${secretAccessKey}`, day ?? ""), region ?? ""), service ?? ""),
      "aws4_request",
    );
    const expected = createHmac("sha256", key).update(stringToSign).digest("hex");
    if (expected !== params.get("X-Amz-Signature"))
      return denied(
        ctx,
        "SignatureDoesNotMatch",
        "The request signature we calculated does not match the signature you provided.",
      );
    await next();
  };
}
