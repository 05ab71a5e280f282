/**
 * Node-only helpers of the SDK: files streamed from disk, SHA-256 while reading, and the registry
 * push (model → version → artifacts:initiate → PUT → complete → finalize).
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { countingStream, type Layerline, type Schemas, type UploadSource } from "./client";
import { LayerlineError } from "./errors";

/** A file on disk as an upload source (read again from disk on each attempt, never buffered). */
export async function fileSource(filePath: string): Promise<UploadSource> {
  const info = await stat(filePath);
  if (!info.isFile()) throw new Error(`${filePath} is not a file.`);
  return {
    name: path.basename(filePath),
    size: info.size,
    stream: () => Readable.toWeb(createReadStream(filePath)) as ReadableStream<Uint8Array>,
  };
}

/** SHA-256 (hex) of a byte stream, read in chunks. */
export async function sha256Stream(stream: ReadableStream<Uint8Array>, onChunk?: (n: number) => void) {
  const hash = createHash("sha256");
  let size = 0;
  for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
    hash.update(chunk);
    size += chunk.byteLength;
    onChunk?.(chunk.byteLength);
  }
  return { sha256: hash.digest("hex"), size };
}

export interface PushProgress {
  /** "hash", "upload" or "verify" */
  phase: string;
  file: string;
  sent: number;
  total: number;
}

export interface PushedArtifact {
  name: string;
  size_bytes: number;
  sha256: string;
  /** The checksum computed here matched the server's. */
  verified: true;
}

export interface PushResult {
  model: Schemas["RegisteredModel"];
  version: Schemas["ModelVersion"];
  artifacts: PushedArtifact[];
}

export class ChecksumMismatchError extends Error {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`Checksum mismatch for ${file}: expected ${expected}, got ${actual}.`);
    this.name = "ChecksumMismatchError";
  }
}

/** Finds the caller's model entry by name, or creates it. */
export async function findOrCreateModel(client: Layerline, name: string, description?: string) {
  const find = async () => {
    const { data } = await client.api.GET("/api/v1/models");
    return (data ?? []).find((m) => m.name === name) ?? null;
  };
  const existing = await find();
  if (existing) return existing;
  try {
    const { data } = await client.api.POST("/api/v1/models", {
      body: { name, ...(description ? { description } : {}) },
    });
    if (!data) throw new Error("no model in the response");
    return data;
  } catch (err) {
    // Created by someone else meanwhile: use theirs.
    if (err instanceof LayerlineError && err.status === 409) {
      const again = await find();
      if (again) return again;
    }
    throw err;
  }
}

/**
 * Pushes a new registry version of model `model` (created when missing) from a succeeded training
 * job (the server copies the job's artifacts; every copy is then downloaded and its SHA-256 checked
 * against the job's record) or from the files of a directory (each hashed, initiated, PUT as a
 * stream with the hash computed again while reading, completed, and checked against the server's).
 * Finalizes the version and returns it.
 */
export async function pushModel(
  client: Layerline,
  opts: {
    model: string;
    jobId?: string;
    dir?: string;
    description?: string;
    onProgress?: (p: PushProgress) => void;
  },
): Promise<PushResult> {
  if (!opts.jobId === !opts.dir) throw new Error("Push either a job (jobId) or a directory (dir).");
  const model = await findOrCreateModel(client, opts.model);
  const { data: version } = await client.api.POST("/api/v1/models/{model_id}/versions", {
    params: { path: { model_id: model.id } },
    body: {
      ...(opts.jobId ? { job_id: opts.jobId } : {}),
      ...(opts.description ? { description: opts.description } : {}),
    },
  });
  if (!version) throw new Error("no version in the response");
  const artifacts = opts.jobId
    ? await verifyJobArtifacts(client, opts.jobId, version.id, opts.onProgress)
    : await uploadDirectory(client, opts.dir as string, version.id, opts.onProgress);
  const { data: finalized } = await client.api.POST("/api/v1/model-versions/{version_id}/finalize", {
    params: { path: { version_id: version.id } },
  });
  if (!finalized) throw new Error("no version in the response");
  return { model, version: finalized, artifacts };
}

async function verifyJobArtifacts(
  client: Layerline,
  jobId: string,
  versionId: string,
  onProgress?: (p: PushProgress) => void,
): Promise<PushedArtifact[]> {
  const job = await client.getJob(jobId);
  const expected = new Map((job.artifact?.files ?? []).map((f) => [f.name, f]));
  const { data: listed } = await client.api.GET("/api/v1/model-versions/{version_id}/artifacts", {
    params: { path: { version_id: versionId } },
  });
  const items = listed ?? [];
  const out: PushedArtifact[] = [];
  for (const artifact of items) {
    const response = await client.request(
      `/api/v1/model-versions/${encodeURIComponent(versionId)}/artifacts/${encodeURIComponent(artifact.id)}/download`,
    );
    if (!response.body) throw new Error(`No body for ${artifact.name}`);
    let seen = 0;
    const got = await sha256Stream(response.body, (n) => {
      seen += n;
      onProgress?.({ phase: "verify", file: artifact.name, sent: seen, total: artifact.size_bytes });
    });
    const want = expected.get(artifact.name)?.sha256 ?? artifact.sha256;
    for (const reference of [want, artifact.sha256])
      if (got.sha256 !== reference.toLowerCase())
        throw new ChecksumMismatchError(artifact.name, reference, got.sha256);
    out.push({ name: artifact.name, size_bytes: got.size, sha256: got.sha256, verified: true });
  }
  for (const name of expected.keys())
    if (!out.some((a) => a.name === name))
      throw new Error(`The job's artifact ${name} is missing from the version.`);
  return out;
}

async function uploadDirectory(
  client: Layerline,
  dir: string,
  versionId: string,
  onProgress?: (p: PushProgress) => void,
): Promise<PushedArtifact[]> {
  const entries = (await readdir(dir, { withFileTypes: true })).filter(
    (e) => e.isFile() && !e.name.startsWith("."),
  );
  if (entries.length === 0) throw new Error(`${dir} holds no files to push.`);
  const out: PushedArtifact[] = [];
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const file = await fileSource(path.join(dir, entry.name));
    let hashed = 0;
    const first = await sha256Stream(file.stream(), (n) => {
      hashed += n;
      onProgress?.({ phase: "hash", file: file.name, sent: hashed, total: file.size });
    });
    const { data: init } = await client.api.POST("/api/v1/model-versions/{version_id}/artifacts:initiate", {
      params: { path: { version_id: versionId } },
      body: {
        name: file.name,
        size_bytes: first.size,
        sha256: first.sha256,
        content_type: contentTypeOf(file.name),
      },
    });
    if (!init) throw new Error("no upload link in the response");
    // The PUT re-reads the file; the hash is computed again on the bytes actually sent.
    let sentHash = "";
    const response = await client.request(init.upload.url, {
      method: init.upload.method,
      headers: init.upload.headers,
      auth: false,
      replaySafe: true,
      body: () => {
        const hash = createHash("sha256");
        let sent = 0;
        return countingStream(file.stream(), (chunk) => {
          hash.update(chunk);
          sent += chunk.byteLength;
          onProgress?.({ phase: "upload", file: file.name, sent, total: file.size });
          if (sent === file.size) sentHash = hash.digest("hex");
        });
      },
    });
    const received = (await response.json()) as { sha256?: string; received_bytes?: number };
    if (file.size === 0) sentHash = first.sha256;
    if (sentHash !== first.sha256)
      throw new ChecksumMismatchError(file.name, first.sha256, sentHash || "(incomplete)");
    if (received.sha256 && received.sha256 !== first.sha256)
      throw new ChecksumMismatchError(file.name, first.sha256, received.sha256);
    const { data: done } = await client.api.POST(
      "/api/v1/model-versions/{version_id}/artifacts/{artifact_id}/complete",
      {
        params: { path: { version_id: versionId, artifact_id: init.artifact_id } },
      },
    );
    if (!done || done.sha256 !== first.sha256)
      throw new ChecksumMismatchError(file.name, first.sha256, done?.sha256 ?? "(none)");
    out.push({ name: file.name, size_bytes: first.size, sha256: first.sha256, verified: true });
  }
  return out;
}

function contentTypeOf(name: string): string {
  if (name.endsWith(".json")) return "application/json";
  if (name.endsWith(".md")) return "text/markdown";
  if (name.endsWith(".txt")) return "text/plain";
  return "application/octet-stream";
}
