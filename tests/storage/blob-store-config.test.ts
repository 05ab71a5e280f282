import { describe, expect, test } from "vitest";
import { ConfigError, readBlobStoreConfig } from "@/lib/server/config";
import { createBlobStore } from "@/lib/server/storage/blob-stores";

const S3 = {
  BLOB_STORE: "s3",
  S3_BUCKET: "layerline-files",
  AWS_ACCESS_KEY_ID: "AKIAEXAMPLE",
  AWS_SECRET_ACCESS_KEY: "secret",
};

describe("object-store settings", () => {
  test("the local disk by default", () => {
    expect(readBlobStoreConfig({})).toEqual({ driver: "local" });
    expect(readBlobStoreConfig({ BLOB_STORE: "local" })).toEqual({ driver: "local" });
    expect(createBlobStore({ DATA_DIR: "/tmp/layerline-x" }).driver).toBe("local");
  });

  test("S3 on AWS: region required, virtual-host style, credentials from the environment", () => {
    expect(() => readBlobStoreConfig(S3)).toThrow(/S3_REGION/);
    expect(readBlobStoreConfig({ ...S3, S3_REGION: "eu-west-1" })).toEqual({
      driver: "s3",
      bucket: "layerline-files",
      region: "eu-west-1",
      endpoint: undefined,
      forcePathStyle: false,
      credentials: { accessKeyId: "AKIAEXAMPLE", secretAccessKey: "secret" },
    });
    expect(readBlobStoreConfig({ ...S3, AWS_REGION: "us-west-2" })).toMatchObject({ region: "us-west-2" });
  });

  test("S3-compatible server: endpoint, path style by default, a default region", () => {
    const config = readBlobStoreConfig({ ...S3, S3_ENDPOINT: "http://127.0.0.1:9000/" });
    expect(config).toMatchObject({
      endpoint: "http://127.0.0.1:9000",
      forcePathStyle: true,
      region: "us-east-1",
    });
    expect(
      readBlobStoreConfig({ ...S3, S3_ENDPOINT: "https://s3.example.com", S3_FORCE_PATH_STYLE: "false" }),
    ).toMatchObject({ forcePathStyle: false });
    expect(createBlobStore({ ...S3, S3_ENDPOINT: "http://127.0.0.1:9000" }).driver).toBe("s3");
  });

  test("no keys: the SDK's default chain (instance role); one key without the other is an error", () => {
    const { AWS_ACCESS_KEY_ID: _a, AWS_SECRET_ACCESS_KEY: _s, ...noKeys } = S3;
    expect(readBlobStoreConfig({ ...noKeys, S3_REGION: "eu-west-1" })).toMatchObject({
      credentials: undefined,
    });
    expect(() => readBlobStoreConfig({ ...noKeys, S3_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "x" })).toThrow(
      /AWS_SECRET_ACCESS_KEY is missing/,
    );
  });

  test.each([
    [{ BLOB_STORE: "gcs" }, /BLOB_STORE must be "local" or "s3"/],
    [{ S3_BUCKET: "b-u-c" }, /S3_BUCKET is set but BLOB_STORE is not/],
    [{ BLOB_STORE: "s3" }, /needs S3_BUCKET/],
    [{ ...S3, S3_BUCKET: "Not_A_Bucket" }, /not a valid bucket name/],
    [{ ...S3, S3_ENDPOINT: "localhost:9000" }, /S3_ENDPOINT must be/],
    [{ ...S3, S3_ENDPOINT: "ftp://host" }, /http:\/\/ or https:\/\//],
    [
      { ...S3, S3_REGION: "eu-west-1", S3_FORCE_PATH_STYLE: "yes" },
      /S3_FORCE_PATH_STYLE must be "true" or "false"/,
    ],
  ])("%j is refused with a clear message", (env, message) => {
    expect(() => readBlobStoreConfig(env)).toThrow(ConfigError);
    expect(() => readBlobStoreConfig(env)).toThrow(message);
  });

  test("messages never include the secret", () => {
    try {
      readBlobStoreConfig({ ...S3, S3_BUCKET: "BAD" });
    } catch (err) {
      expect(String(err)).not.toContain("secret");
    }
    expect.assertions(1);
  });
});
