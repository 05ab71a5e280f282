/**
 * A sequential HTTP client in its own process (as an app calling a deployment would be), spawned by
 * bench/serving-bench.ts: `tsx bench/predict-client.ts <url> <calls> <body> <header=value>...`.
 * One keep-alive connection; prints {"ms": [...]} with each call's wall time in milliseconds.
 */
import http from "node:http";

const [url, callsText, body, ...headerArgs] = process.argv.slice(2);
const calls = Number(callsText);
const headers: Record<string, string> = { "Content-Length": String(Buffer.byteLength(body)) };
for (const h of headerArgs) {
  const at = h.indexOf("=");
  headers[h.slice(0, at)] = h.slice(at + 1);
}
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const target = new URL(url);

function once(): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname, method: "POST", headers, agent },
      (res) => {
        res.on("data", () => {});
        res.on("end", () => {
          if (res.statusCode !== 200) reject(new Error(`status ${res.statusCode}`));
          else resolve(performance.now() - t0);
        });
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

for (let i = 0; i < 1000; i++) await once(); // warm-up, as serving-bench.ts does in-process
const ms: number[] = [];
for (let i = 0; i < calls; i++) ms.push(await once());
agent.destroy();
process.stdout.write(JSON.stringify({ ms }));
