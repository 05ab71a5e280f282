import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { ColumnRole, DatasetProfile, DatasetSchemaInfo, DatasetTask } from "../../db/schema/datasets";
import { detectFormat } from "./detect-format";
import { profileFile } from "./profile";

/**
 * Built-in datasets shipped in data/builtin/ (see its README for sources and licences). They have no
 * database rows: ids `builtin-<name>`, one version `builtin-<name>-v1`, owned by nobody, public and
 * read-only. Their profile is computed on first use and kept in memory.
 */
export interface BuiltinImageLayout {
  width: number;
  height: number;
  channels: 1;
  /** Column of the pixel at row r, column c. */
  pixel_column_pattern: string;
  max_value: number;
}

export interface BuiltinDataset {
  id: string;
  name: string;
  description: string;
  file: string;
  format: "csv" | "text";
  task: DatasetTask;
  target: string | null;
  license: string;
  source: string;
  image?: BuiltinImageLayout;
}

/** When the built-ins were added: their created_at/updated_at. */
export const BUILTIN_CREATED_AT = "2025-01-01T00:00:00.000Z";

const UCI = "UCI Machine Learning Repository; scikit-learn packaging";

export const BUILTIN_DATASETS: readonly BuiltinDataset[] = [
  {
    id: "builtin-iris",
    name: "Iris",
    description: "Fisher's iris flowers: 150 samples, 4 measurements in cm, 3 species.",
    file: "iris.csv",
    format: "csv",
    task: "classification",
    target: "species",
    license: "BSD-3-Clause (scikit-learn packaging)",
    source: `Iris (R. A. Fisher, 1936), ${UCI}`,
  },
  {
    id: "builtin-wine",
    name: "Wine",
    description: "Chemical analysis of 178 Italian wines from 3 cultivars (13 features).",
    file: "wine.csv",
    format: "csv",
    task: "classification",
    target: "class",
    license: "BSD-3-Clause (scikit-learn packaging)",
    source: `Wine recognition, ${UCI}`,
  },
  {
    id: "builtin-breast-cancer",
    name: "Breast cancer (Wisconsin diagnostic)",
    description: "569 digitised fine-needle aspirates, 30 features of cell nuclei, malignant or benign.",
    file: "breast_cancer.csv",
    format: "csv",
    task: "classification",
    target: "diagnosis",
    license: "BSD-3-Clause (scikit-learn packaging)",
    source: `Breast Cancer Wisconsin (Diagnostic), ${UCI}`,
  },
  {
    id: "builtin-digits",
    name: "Digits (8×8)",
    description:
      "1,797 handwritten digits as 8×8 images with pixel values 0–16; usable as a table or as images.",
    file: "digits.csv",
    format: "csv",
    task: "classification",
    target: "digit",
    license: "BSD-3-Clause (scikit-learn packaging)",
    source: `Optical Recognition of Handwritten Digits, ${UCI}`,
    image: { width: 8, height: 8, channels: 1, pixel_column_pattern: "pixel_{row}_{col}", max_value: 16 },
  },
  {
    id: "builtin-diabetes",
    name: "Diabetes",
    description:
      "442 diabetes patients: age, sex, BMI, blood pressure and 6 serum measurements; disease progression after one year.",
    file: "diabetes.csv",
    format: "csv",
    task: "regression",
    target: "target",
    license: "BSD-3-Clause (scikit-learn packaging)",
    source: "Efron, Hastie, Johnstone & Tibshirani (2004), Least Angle Regression; scikit-learn packaging",
  },
  {
    id: "builtin-penguins",
    name: "Palmer penguins",
    description:
      "344 penguins of 3 species from the Palmer Archipelago: bill, flipper and body measurements.",
    file: "penguins.csv",
    format: "csv",
    task: "classification",
    target: "species",
    license: "CC0-1.0 (data); BSD-3-Clause (vega-datasets)",
    source: "Dr. Kristen Gorman and Palmer Station Antarctica LTER, via palmerpenguins and vega-datasets",
  },
  {
    id: "builtin-declaration",
    name: "US Declaration of Independence (excerpt)",
    description: "A small public-domain English text for trying out language models.",
    file: "declaration_of_independence.txt",
    format: "text",
    task: "language_modeling",
    target: null,
    license: "Public domain",
    source: "United States Declaration of Independence (1776)",
  },
];

export const BUILTIN_PREFIX = "builtin-";

export function isBuiltinId(id: string): boolean {
  return id.startsWith(BUILTIN_PREFIX);
}

export function findBuiltin(id: string): BuiltinDataset | undefined {
  return BUILTIN_DATASETS.find((b) => b.id === id);
}

export function findBuiltinByVersion(versionId: string): BuiltinDataset | undefined {
  return BUILTIN_DATASETS.find((b) => builtinVersionId(b) === versionId);
}

export function builtinVersionId(b: BuiltinDataset): string {
  return `${b.id}-v1`;
}

export function builtinDir(): string {
  return path.resolve(
    /* turbopackIgnore: true */ process.env.BUILTIN_DATASETS_DIR ??
      path.join(process.cwd(), "data", "builtin"),
  );
}

export function builtinPath(b: BuiltinDataset): string {
  return path.join(/* turbopackIgnore: true */ builtinDir(), b.file);
}

export interface BuiltinVersionData {
  schema: DatasetSchemaInfo;
  profile: DatasetProfile;
  sizeBytes: number;
  contentHash: string;
  roles: Record<string, ColumnRole>;
}

const cache = new Map<string, Promise<BuiltinVersionData>>();

async function computeVersionData(b: BuiltinDataset): Promise<BuiltinVersionData> {
  const file = builtinPath(b);
  const content = await fs.promises.readFile(/* turbopackIgnore: true */ file);
  const detected = b.format === "csv" ? await detectFormat(file, b.file) : { format: "text" as const };
  const { schema, profile } = await profileFile(file, detected);
  const roles: Record<string, ColumnRole> = {};
  for (const c of schema.columns) {
    roles[c.name] = b.format === "text" ? "text" : c.name === b.target ? "target" : "feature";
  }
  return {
    schema,
    profile,
    sizeBytes: content.length,
    contentHash: createHash("sha256").update(content).digest("hex"),
    roles,
  };
}

/** Schema, profile, size, hash and roles of a built-in dataset (computed once per process). */
export function builtinVersionData(b: BuiltinDataset): Promise<BuiltinVersionData> {
  let p = cache.get(b.id);
  if (!p) {
    p = computeVersionData(b);
    p.catch(() => cache.delete(b.id));
    cache.set(b.id, p);
  }
  return p;
}
