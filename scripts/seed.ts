/**
 * Creates a demo account with sample projects, so a newcomer sees a living studio, and prints an API key
 * for it. Talks to the running studio over HTTP (SEED_URL, default http://localhost:$PORT); when no
 * server answers, it runs the API in this process against DATA_DIR / DATABASE_URL instead.
 *
 *   npm run seed            # demo / demo-password
 */
import { getApp } from "../lib/server/app";

const base = process.env.SEED_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
const DEMO = { email: "demo@layerline.dev", username: "demo", password: "demo-password" };

type Send = (method: string, path: string, body?: unknown, cookie?: string) => Promise<Response>;

async function reachable(): Promise<boolean> {
  try {
    return (await fetch(`${base}/health`)).ok;
  } catch {
    return false;
  }
}

function sender(remote: boolean): Send {
  return async (method, path, body, cookie) => {
    const headers: Record<string, string> = { Origin: base, Host: new URL(base).host };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (cookie) headers.Cookie = cookie;
    const init = { method, headers, body: body === undefined ? undefined : JSON.stringify(body) };
    return remote ? fetch(`${base}${path}`, init) : getApp().request(`${base}${path}`, init);
  };
}

async function main() {
  const remote = await reachable();
  const send = sender(remote);
  console.log(remote ? `Seeding the studio at ${base}` : "No studio running: seeding the database directly");

  let res = await send("POST", "/api/auth/signup", DEMO);
  if (res.status === 409)
    res = await send("POST", "/api/auth/login", { login: DEMO.username, password: DEMO.password });
  if (!res.ok) throw new Error(`Could not sign in as ${DEMO.username}: ${res.status} ${await res.text()}`);
  const cookie = (res.headers.get("set-cookie") ?? "").split(";")[0];

  const existing = await send("GET", "/api/v1/projects?limit=100", undefined, cookie);
  const names = new Set(
    existing.ok ? ((await existing.json()) as { items: { name: string }[] }).items.map((p) => p.name) : [],
  );
  const samples = [
    {
      name: "Iris MLP classifier",
      template: "mlp-classifier",
      description: "A small MLP for the built-in Iris dataset.",
    },
    {
      name: "Digits CNN",
      template: "cnn-image",
      description: "A LeNet-style convolutional network for images.",
    },
    {
      name: "Sentiment LSTM",
      template: "lstm-sequence",
      description: "Embedding + LSTM sequence classifier.",
    },
    {
      name: "Tiny transformer",
      template: "transformer-block",
      description: "One self-attention block over tokens.",
    },
  ];
  for (const sample of samples) {
    if (names.has(sample.name)) continue;
    const r = await send("POST", "/api/v1/projects", sample, cookie);
    if (!r.ok) throw new Error(`Could not create "${sample.name}": ${r.status} ${await r.text()}`);
    console.log(`  project: ${sample.name}`);
  }
  const key = await send("POST", "/api/v1/users/me/api-keys", { name: "seed" }, cookie);
  const { key: secret } = (await key.json()) as { key: string };
  console.log(`\nSign in as "${DEMO.username}" with password "${DEMO.password}".`);
  console.log(`API key (shown once): ${secret}`);
  console.log(`  curl -H "Authorization: Bearer ${secret}" ${base}/api/v1/users/me/entitlements`);
  process.exit(0);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
