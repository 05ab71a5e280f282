import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { openGuardedUrl } from "@/lib/server/modules/datasets/fetch-url";
import { isForbiddenAddress } from "@/lib/server/modules/datasets/ssrf-guard";
import { call, signUpWithKey } from "../helpers";
import { datasetBlobFiles, startDatasetTestApp, waitForTask, withEnv } from "./datasets-helpers";

const { app, blobDir } = await startDatasetTestApp("ds-fetch");

const CSV = "city,population\nOslo,709000\nLima,10000000\nPune,3100000\n";

/** A local server: /data.csv, redirects, a 404 and a big file. */
const server = http.createServer((req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  const port = (server.address() as AddressInfo).port;
  if (url.pathname === "/data.csv") {
    res.writeHead(200, { "Content-Type": "text/csv", "Content-Length": Buffer.byteLength(CSV) });
    res.end(CSV);
  } else if (url.pathname === "/named") {
    res.writeHead(200, { "Content-Disposition": 'attachment; filename="cities.csv"' });
    res.end(CSV);
  } else if (url.pathname.startsWith("/hop/")) {
    const n = Number(url.pathname.split("/")[2]);
    res.writeHead(302, { Location: n > 0 ? `/hop/${n - 1}` : "/data.csv" });
    res.end();
  } else if (url.pathname === "/to-loopback-v6") {
    res.writeHead(302, { Location: `http://[::1]:${port}/data.csv` });
    res.end();
  } else if (url.pathname === "/to-other-loopback") {
    res.writeHead(301, { Location: `http://127.0.0.2:${port}/data.csv` });
    res.end();
  } else if (url.pathname === "/to-private") {
    res.writeHead(307, { Location: "http://10.20.30.40/data.csv" });
    res.end();
  } else if (url.pathname === "/to-ftp") {
    res.writeHead(302, { Location: "ftp://example.com/data.csv" });
    res.end();
  } else if (url.pathname === "/big-chunked") {
    res.writeHead(200, { "Content-Type": "text/csv" }); // no Content-Length: counted while streaming
    res.write("a,b\n");
    for (let i = 0; i < 2000; i++) res.write("123456,654321\n");
    res.end();
  } else {
    res.writeHead(404);
    res.end("not here");
  }
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

async function fetchFromUrl(key: string, url: string, name = "Cities") {
  return call(app, "POST", "/api/v1/datasets/from-url", { key, body: { url, name } });
}

describe("SSRF guard", () => {
  it("classifies addresses", () => {
    const forbidden = [
      "127.0.0.1",
      "127.1.2.3",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.169.254",
      "100.64.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "224.0.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::ffff:7f00:1",
      "::ffff:10.0.0.1",
      "64:ff9b::a00:1", // NAT64 of 10.0.0.1
      "2002:7f00:1::", // 6to4 of 127.0.0.1
      "not-an-ip",
    ];
    for (const a of forbidden) expect(isForbiddenAddress(a), a).toBe(true);
    for (const a of [
      "8.8.8.8",
      "1.1.1.1",
      "93.184.216.34",
      "2606:4700:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::808:808",
    ]) {
      expect(isForbiddenAddress(a), a).toBe(false);
    }
  });

  it("checks every redirect, not just the first URL", async () => {
    const onlyThisServer = { allowPrivate: false, allowAddress: (ip: string) => ip === "127.0.0.1" };
    const ok = await openGuardedUrl(`${base}/hop/2`, onlyThisServer);
    expect(ok.res.statusCode).toBe(200);
    ok.res.resume();
    await expect(openGuardedUrl(`${base}/to-loopback-v6`, onlyThisServer)).rejects.toThrow(
      /cannot be fetched/,
    );
    await expect(openGuardedUrl(`${base}/to-other-loopback`, onlyThisServer)).rejects.toThrow(
      /cannot be fetched/,
    );
    await expect(openGuardedUrl(`${base}/to-private`, onlyThisServer)).rejects.toThrow(/cannot be fetched/);
    await expect(openGuardedUrl(`${base}/to-ftp`, onlyThisServer)).rejects.toThrow(/Only http and https/);
    await expect(openGuardedUrl(`${base}/hop/6`, onlyThisServer)).rejects.toThrow(/Too many redirects/);
    await expect(openGuardedUrl(`${base}/data.csv`, { allowPrivate: false })).rejects.toThrow(
      /cannot be fetched/,
    );
  });
});

describe("POST /datasets/from-url", () => {
  it("refuses private, loopback and non-http URLs up front", async () => {
    const { key } = await signUpWithKey(app);
    await withEnv({ DATASET_FETCH_ALLOW_PRIVATE: undefined }, async () => {
      for (const url of [
        `${base}/data.csv`,
        "http://10.1.2.3/data.csv",
        "http://[::1]/data.csv",
        "http://[::ffff:127.0.0.1]/data.csv",
        "http://169.254.169.254/latest/meta-data/",
        "http://localhost/data.csv",
        "http://0x7f.1/data.csv",
        "ftp://example.com/data.csv",
        "file:///etc/passwd",
        "http://user:pw@example.com/data.csv",
        "not a url",
      ]) {
        const r = await fetchFromUrl(key, url);
        expect(r.status, url).toBe(422);
        expect(r.json.errors[0].path, url).toBe("url");
      }
    });
    const noName = await call(app, "POST", "/api/v1/datasets/from-url", {
      key,
      body: { url: "https://example.com/x.csv" },
    });
    expect(noName.status).toBe(422);
  });

  it("fetches from a local server with the override, following redirects", async () => {
    const { key } = await signUpWithKey(app);
    await withEnv({ DATASET_FETCH_ALLOW_PRIVATE: "1" }, async () => {
      const r = await fetchFromUrl(key, `${base}/hop/3`);
      expect(r.status).toBe(202);
      expect(r.json).toMatchObject({ kind: "fetch_url", state: "queued", progress: 0, dataset_id: null });
      const task = await waitForTask(app, key, r.json.task_id);
      expect(task).toMatchObject({ state: "succeeded", progress: 1, error: null });
      expect(task.dataset_id).toMatch(/^ds_/);
      const ds = await call(app, "GET", `/api/v1/datasets/${task.dataset_id}`, { key });
      expect(ds.json).toMatchObject({ name: "Cities", format: "csv", row_count: 3 });
      const version = await call(
        app,
        "GET",
        `/api/v1/datasets/${task.dataset_id}/versions/${task.version_id}`,
        { key },
      );
      expect(version.json.file_name).toBe("data.csv");

      const named = await fetchFromUrl(key, `${base}/named`, "Named");
      const namedTask = await waitForTask(app, key, named.json.task_id);
      const namedVersion = await call(
        app,
        "GET",
        `/api/v1/datasets/${namedTask.dataset_id}/versions/${namedTask.version_id}`,
        {
          key,
        },
      );
      expect(namedVersion.json.file_name).toBe("cities.csv");
    });
  });

  it("fails the task on redirects it must not follow, server errors and size limits, keeping nothing", async () => {
    const { key, user } = await signUpWithKey(app);
    const before = await datasetBlobFiles(blobDir);
    await withEnv({ DATASET_FETCH_ALLOW_PRIVATE: "1" }, async () => {
      const tooMany = await waitForTask(app, key, (await fetchFromUrl(key, `${base}/hop/7`)).json.task_id);
      expect(tooMany).toMatchObject({ state: "failed", dataset_id: null });
      expect(tooMany.error).toMatch(/Too many redirects/);
      const ftp = await waitForTask(app, key, (await fetchFromUrl(key, `${base}/to-ftp`)).json.task_id);
      expect(ftp.error).toMatch(/Only http and https/);
      const missing = await waitForTask(app, key, (await fetchFromUrl(key, `${base}/nope.csv`)).json.task_id);
      expect(missing.error).toMatch(/answered 404/);
      await withEnv({ DATASET_MAX_FILE_BYTES: "5000" }, async () => {
        const declared = await waitForTask(
          app,
          key,
          (await fetchFromUrl(key, `${base}/data.csv`)).json.task_id,
        );
        expect(declared.state).toBe("succeeded");
        const big = await waitForTask(
          app,
          key,
          (await fetchFromUrl(key, `${base}/big-chunked`)).json.task_id,
        );
        expect(big.state).toBe("failed");
        expect(big.error).toMatch(/limited to 5000 bytes/);
      });
    });
    const after = await datasetBlobFiles(blobDir);
    expect(after.length).toBe(before.length + 1); // only the successful fetch
    expect(after.some((f) => f.startsWith(".tmp"))).toBe(false);
    const mine = await call(app, "GET", "/api/v1/datasets/browse?mine=true", { key });
    expect(mine.json).toHaveLength(1);
    expect(mine.json[0].owner.id).toBe(user.id);
  });
});
