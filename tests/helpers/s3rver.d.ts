/** The part of npm's `s3rver` (no bundled types) that tests/helpers/s3-server.ts uses. */
declare module "s3rver" {
  interface S3rverOptions {
    address?: string;
    port?: number;
    silent?: boolean;
    directory: string;
    configureBuckets?: { name: string; configs?: string[] }[];
    allowMismatchedSignatures?: boolean;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Koa's middleware list: composed when the server starts listening. */
    middleware: unknown[];
    run(): Promise<import("node:net").AddressInfo>;
    close(): Promise<void>;
  }
}
