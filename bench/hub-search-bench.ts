/**
 * Hub search benchmark (run by hand: `npx tsx bench/hub-search-bench.ts`; with DATABASE_URL set it
 * runs on that PostgreSQL server as well — use a throwaway database, e.g.
 * `bash scripts/with-postgres.sh sh -c 'DATABASE_URL=$TEST_DATABASE_URL npx tsx bench/hub-search-bench.ts'`).
 *
 * Inserts 100,000 published hub models (names, descriptions, tags and cards drawn from a word list,
 * with generate_series in batches; a few thousand stars so trending has something to count), then
 * times ~200 representative calls of the service behind GET /hub/models and /hub/models/search
 * (full-text queries, with filters and each sort, plus plain listings) and prints p50/p95/max.
 */
import { sql } from "drizzle-orm";
import { openDb } from "../lib/server/db/client";
import { users } from "../lib/server/db/schema";
import type { ListHubModelsQuery } from "../lib/server/modules/hub/hub.schemas";
import { listModels } from "../lib/server/modules/hub/search";

const MODELS = Number(process.env.BENCH_MODELS ?? 100_000);
const BATCH = 10_000;

const WORDS = [
  "iris",
  "digits",
  "mnist",
  "sentiment",
  "resnet",
  "transformer",
  "lstm",
  "forecast",
  "fraud",
  "churn",
  "credit",
  "housing",
  "wine",
  "titanic",
  "cifar",
  "speech",
  "tabular",
  "vision",
  "text",
  "image",
  "classifier",
  "regressor",
  "detector",
  "encoder",
  "language",
  "embedding",
  "segmentation",
  "anomaly",
  "recommendation",
  "translation",
  "summarization",
  "medical",
  "finance",
  "retail",
  "energy",
  "weather",
  "traffic",
  "satellite",
  "audio",
  "music",
  "fashion",
  "flowers",
  "cancer",
  "diabetes",
  "spam",
  "toxic",
  "review",
  "question",
  "answer",
  "chat",
  "code",
  "protein",
  "molecule",
  "graph",
  "network",
  "robust",
  "small",
  "fast",
  "tiny",
  "distilled",
  "pruned",
  "quantized",
  "baseline",
  "benchmark",
  "pretrained",
];
const TASKS = ["tabular-classification", "tabular-regression", "image-classification", "text-generation"];
const FRAMEWORKS = ["pytorch", "tfjs"];
const LICENSES = ["mit", "apache-2.0", "cc-by-4.0", "bsd-3-clause"];

const QUERIES = [
  "iris",
  "digits classifier",
  "sentiment",
  "fraud detector",
  "resnet vision",
  '"language model"',
  "housing regressor",
  "cancer -diabetes",
  "spam or toxic",
  "tiny fast",
  "medical image",
  "weather forecast",
  "credit churn",
  "protein",
  "distilled transformer",
  "audio music",
  "flowers",
  "satellite segmentation",
  "quantized",
  "chat",
];

function pct(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function run(label: string, target: Parameters<typeof openDb>[0]) {
  const open = await openDb(target);
  const db = open.db;
  try {
    const owner = `usr_bench_${Date.now()}`;
    await db.insert(users).values({
      id: owner,
      email: `${owner}@example.com`,
      username: owner,
      passwordHash: "x",
    });
    const words = sql.raw(`(array[${WORDS.map((w) => `'${w}'`).join(",")}])`);
    const tasks = sql.raw(`(array[${TASKS.map((w) => `'${w}'`).join(",")}])`);
    const fws = sql.raw(`(array[${FRAMEWORKS.map((w) => `'${w}'`).join(",")}])`);
    const lics = sql.raw(`(array[${LICENSES.map((w) => `'${w}'`).join(",")}])`);
    const n = WORDS.length;
    const t0 = performance.now();
    for (let start = 0; start < MODELS; start += BATCH) {
      const end = Math.min(MODELS, start + BATCH) - 1;
      // Pseudo-random but deterministic word picks from the row number.
      await db.execute(sql`
        insert into hub_models (id, owner_id, slug, name, description, task, framework, license, tags,
          category, card, visibility, state, downloads, stars, published_at, updated_at)
        select 'hub_bench_' || g, ${owner}, 'm-' || g,
          initcap(${words}[1 + (g * 7) % ${n}]) || ' ' || ${words}[1 + (g * 13 + 5) % ${n}] || ' ' || g,
          'A ' || ${words}[1 + (g * 17 + 3) % ${n}] || ' ' || ${words}[1 + (g * 29 + 11) % ${n}]
            || ' model trained on ' || ${words}[1 + (g * 31 + 2) % ${n}] || ' data.',
          ${tasks}[1 + g % 4], ${fws}[1 + (g / 4) % 2], ${lics}[1 + (g / 8) % 4],
          jsonb_build_array(${words}[1 + (g * 37 + 1) % ${n}], ${words}[1 + (g * 41 + 7) % ${n}]),
          ${tasks}[1 + g % 4],
          '# Model ' || g || E'\n\n' || repeat(${words}[1 + (g * 43 + 9) % ${n}] || ' ' || ${words}[1 + (g * 47 + 4) % ${n}] || ' ', 20)
            || E'\n\n| metric | value |\n|---|---|\n| accuracy | 0.9 |',
          'public', 'published', (g * 7919) % 5000, ((g % 3001) * 104729) % 300,
          now() - make_interval(secs => g), now() - make_interval(secs => g)
        from generate_series(${start}::int, ${end}::int) as g`);
    }
    // Stars in and out of the trending window (one user starring many models).
    await db.execute(sql`
      insert into hub_stars (user_id, model_id, created_at)
      select ${owner}, 'hub_bench_' || g, now() - make_interval(days => g % 14)
      from generate_series(0, ${Math.min(MODELS, 20_000) - 1}::int, 5) as g`);
    await db.execute(sql`analyze hub_models`);
    await db.execute(sql`analyze hub_stars`);
    const insertMs = performance.now() - t0;

    const cases: ListHubModelsQuery[] = [];
    const sorts = [undefined, "trending", "downloads", "stars", "updated"] as const;
    for (let i = 0; i < 200; i++) {
      const q = QUERIES[i % QUERIES.length];
      const kind = i % 10;
      const base: ListHubModelsQuery = { page: 1 + (i % 3 === 0 ? 1 : 0), limit: 20 };
      if (kind < 6) cases.push({ ...base, q, sort: sorts[i % sorts.length] });
      else if (kind === 6) cases.push({ ...base, q, task: TASKS[i % 4], license: LICENSES[i % 4] });
      else if (kind === 7) cases.push({ ...base, q, tags: WORDS[i % WORDS.length] });
      else if (kind === 8) cases.push({ ...base, sort: sorts[1 + (i % 4)], framework: FRAMEWORKS[i % 2] });
      else cases.push({ ...base, task: TASKS[i % 4], sort: "downloads" });
    }
    // Warm-up (first-use planning, caches), not measured.
    for (const c of cases.slice(0, 10)) await listModels(db, null, c);
    const times: number[] = [];
    const byKind = new Map<string, number[]>();
    let hits = 0;
    for (const c of cases) {
      const t = performance.now();
      const page = await listModels(db, null, c);
      const ms = performance.now() - t;
      times.push(ms);
      hits += page.total;
      const kind = `${c.q ? "search" : "list"}:${c.sort ?? (c.q ? "relevance" : "updated")}`;
      byKind.set(kind, [...(byKind.get(kind) ?? []), ms]);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${label}: ${MODELS.toLocaleString("en")} models inserted in ${(insertMs / 1000).toFixed(1)} s; ` +
        `${times.length} searches: p50 ${pct(times, 50).toFixed(1)} ms, p95 ${pct(times, 95).toFixed(1)} ms, ` +
        `max ${times[times.length - 1].toFixed(1)} ms (mean matches ${Math.round(hits / times.length)})`,
    );
    for (const [kind, list] of [...byKind.entries()].sort()) {
      list.sort((a, b) => a - b);
      console.log(
        `  ${kind.padEnd(18)} n=${String(list.length).padStart(3)}  p50 ${pct(list, 50).toFixed(1).padStart(6)} ms  p95 ${pct(list, 95).toFixed(1).padStart(6)} ms`,
      );
    }
    await db.execute(sql`delete from hub_models where owner_id = ${owner}`);
    await db.execute(sql`delete from users where id = ${owner}`);
  } finally {
    await open.close();
  }
}

await run("PGlite (in memory)", { kind: "pglite-memory" });
if (process.env.DATABASE_URL) await run("PostgreSQL", { kind: "postgres", url: process.env.DATABASE_URL });
