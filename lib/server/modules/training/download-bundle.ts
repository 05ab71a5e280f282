/**
 * GET /training/jobs/{id}/download-code: a training job as a project that trains it again. The ZIP
 * holds the generated code (the files the job's worker ran), `data/` — the job's dataset prepared
 * exactly as the worker prepared it (materializeDataset with the job's graph, configuration and
 * dataset version: the same split, encoding and statistics) — the base weights of a fine-tuning
 * run, and a README whose "Reproduce this job" section gives the command line the worker used.
 * Run with that command, PyTorch jobs end with the job's metrics (tests/training/reproduce-bundle.test.ts).
 */
import fsp from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import yazl from "yazl";
import {
  type CodegenTarget,
  generateProject,
  type ReproduceOptions,
  slugify,
  validateForCodegen,
} from "../../../ml/codegen";
import type { Db } from "../../db/client";
import type { TrainingJobRow } from "../../db/schema";
import { DomainError } from "../../errors";
import { codeZipFor } from "../codegen/codegen";
import { fineTuneArgs, hyperparameterArgs } from "./executors/process";
import { dataParallelProcs } from "./executors/pytorch";
import { fineTuneArgsFor } from "./fine-tune-args";
import { findOwnedJob } from "./job-rows";
import { materializeDataset } from "./materialize";

/** Prepared data larger than this stays out of the ZIP (the README says so). */
export const MAX_BUNDLE_DATA_BYTES = 64 * 1024 * 1024;
/** Where the prepared dataset and the base weights sit in the project. */
const DATA_DIR = "data";
const BASE_WEIGHTS = "base-weights.pt";

/** The job's command line, as the worker passes it (trainingArgs) but with the bundle's paths. */
export function reproduceArgs(
  job: Pick<TrainingJobRow, "config">,
  target: CodegenTarget,
  fineTune: string[] = [],
): string[] {
  return [
    target === "pytorch" ? "train.py" : "train.mjs",
    "--data-dir",
    DATA_DIR,
    ...hyperparameterArgs(job.config),
    ...(target === "pytorch" ? ["--device", "cpu"] : []),
    ...fineTune,
  ];
}

async function filesUnder(dir: string, prefix: string): Promise<{ name: string; file: string }[]> {
  const out: { name: string; file: string }[] = [];
  for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(file, `${prefix}${entry.name}/`)));
    else if (entry.isFile()) out.push({ name: `${prefix}${entry.name}`, file });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/** The prepared dataset's files (name in the ZIP → bytes), or why there are none. */
async function preparedData(
  db: Db,
  job: TrainingJobRow,
  dir: string,
): Promise<{ files: { name: string; bytes: Buffer }[] } | { reason: string }> {
  try {
    await materializeDataset(db, {
      ownerId: job.ownerId,
      datasetId: job.datasetId,
      datasetVersionId: job.datasetVersionId,
      graph: job.graph,
      config: job.config,
      dir,
      vocabulary: job.fineTune?.vocabulary ?? null,
      encoding: job.fineTune?.encoding ?? null,
    });
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { reason: `the dataset could not be prepared (${err.message})` };
  }
  const listed = await filesUnder(dir, `${DATA_DIR}/`);
  let total = 0;
  for (const f of listed) total += (await fsp.stat(f.file)).size;
  if (total > MAX_BUNDLE_DATA_BYTES)
    return {
      reason: `prepared, it takes ${Math.round(total / 2 ** 20)} MiB, more than the ${MAX_BUNDLE_DATA_BYTES / 2 ** 20} MiB a download carries`,
    };
  return {
    files: await Promise.all(listed.map(async (f) => ({ name: f.name, bytes: await fsp.readFile(f.file) }))),
  };
}

/** The job's bundle as a streamed ZIP (a folder `<project-slug>-<target>/`). */
export async function jobBundleZip(
  db: Db,
  ownerId: string,
  jobId: string,
  target: CodegenTarget,
): Promise<{ filename: string; stream: ReadableStream<Uint8Array> }> {
  const job = await findOwnedJob(db, ownerId, jobId);
  const project = { name: job.projectName, graph: job.graph, trainingConfig: job.config };
  // A graph the generator refuses: the codegen module's 422, with its per-node errors.
  if (!validateForCodegen(job.graph, job.config, target).valid) return codeZipFor(project, target);

  const work = await fsp.mkdtemp(path.join(os.tmpdir(), "layerline-bundle-"));
  try {
    const data = await preparedData(db, job, path.join(work, DATA_DIR));
    let baseWeights: { bytes: Buffer; args: string[] } | null = null;
    if (job.baseModelId && target === "pytorch") {
      try {
        const args = await fineTuneArgsFor(db, job, work);
        if (args)
          baseWeights = {
            bytes: await fsp.readFile(args.initWeights),
            args: fineTuneArgs({ ...args, initWeights: BASE_WEIGHTS }),
          };
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
      }
    }
    const runtime: ReproduceOptions["runtime"] =
      job.runtime === "external" ? "external" : job.resolvedRuntime === "tfjs" ? "tfjs" : "pytorch";
    const reproduce: ReproduceOptions = {
      jobId: job.id,
      runtime,
      command: reproduceArgs(job, target, baseWeights?.args ?? []),
      launcher:
        target === "tfjs"
          ? { kind: "node" }
          : job.strategy === "data_parallel"
            ? { kind: "torchrun", processes: dataParallelProcs() }
            : { kind: "python" },
      data: "files" in data ? { included: true } : { included: false, reason: data.reason },
      baseWeights: baseWeights ? BASE_WEIGHTS : null,
    };
    const { files } = generateProject(target, job.graph, job.config, {
      projectName: job.projectName,
      reproduce,
    });
    const folder = `${slugify(job.projectName)}-${target}`;
    const zip = new yazl.ZipFile();
    const mtime = new Date();
    for (const file of files)
      zip.addBuffer(Buffer.from(file.content, "utf8"), `${folder}/${file.path}`, { mtime, compress: true });
    if ("files" in data)
      for (const f of data.files) zip.addBuffer(f.bytes, `${folder}/${f.name}`, { mtime, compress: true });
    if (baseWeights) zip.addBuffer(baseWeights.bytes, `${folder}/${BASE_WEIGHTS}`, { mtime, compress: true });
    zip.end();
    return {
      filename: `${folder}.zip`,
      // yazl's output is a PassThrough, typed as the legacy NodeJS.ReadableStream.
      stream: Readable.toWeb(zip.outputStream as Readable) as ReadableStream<Uint8Array>,
    };
  } finally {
    await fsp.rm(work, { recursive: true, force: true }).catch(() => {});
  }
}
