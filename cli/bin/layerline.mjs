#!/usr/bin/env node
// The `layerline` command: runs the TypeScript sources through tsx (a dependency of this repository).
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv.slice(2));
