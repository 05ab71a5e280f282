/** @type {import('next').NextConfig} */
const nextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // A second build beside the default one (`NEXT_DIST_DIR=.next-b next build`), for side-by-side runs.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // Side builds skip the type check: `npm test` runs tsc over the whole tree anyway.
  typescript: { ignoreBuildErrors: Boolean(process.env.NEXT_DIST_DIR) },
  // The contract has `POST /api/v1/datasets/` with its trailing slash: serve paths as they are sent.
  skipTrailingSlashRedirect: true,
  // Native or WASM modules loaded at run time from node_modules, never bundled.
  serverExternalPackages: [
    "@electric-sql/pglite",
    "@node-rs/argon2",
    "postgres",
    "@duckdb/node-api",
    "@duckdb/node-bindings",
    "sharp",
    "@tensorflow/tfjs",
    "@tensorflow/tfjs-backend-wasm",
    "onnxruntime-node",
  ],
};

export default nextConfig;
