import { defineConfig } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 3200);
const DATA_DIR = process.env.E2E_DATA_DIR ?? ".test-data/e2e";

/** End-to-end tests drive the built app (`next build` first) in Debian's Chromium. */
export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: [["list"]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
  },
  webServer: {
    command: `rm -rf ${DATA_DIR} && node --max-semi-space-size=32 --import tsx scripts/server.ts`,
    url: `http://localhost:${PORT}/health`,
    timeout: 60_000,
    reuseExistingServer: false,
    stdout: "pipe",
    env: {
      PORT: String(PORT),
      DATA_DIR,
      NEXT_TELEMETRY_DISABLED: "1",
      LOGIN_RATE_LIMIT_PER_MINUTE: "1000",
      RATE_LIMIT_PER_MINUTE: "100000",
      DATASET_FETCH_ALLOW_PRIVATE: "1",
    },
  },
});
