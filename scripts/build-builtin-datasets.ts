/**
 * Converts the classic datasets (scikit-learn's packaging of UCI data, see data/builtin/README.md) and
 * vega-datasets' Palmer penguins into the CSV files the service ships in data/builtin/.
 *
 *   npx tsx scripts/build-builtin-datasets.ts [source dir]   (default ../shared/data/builtin)
 *
 * The scikit-learn CSVs start with a line that is not a column header (`n_samples,n_features,<class
 * names...>`); the class names it lists replace the integer labels. The diabetes files are
 * space-separated, without header, with the target in a second file.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";

const SOURCE = path.resolve(process.argv[2] ?? "../shared/data/builtin");
const OUT = path.resolve("data/builtin");

type Cell = string | number | null;

function readText(file: string): string {
  const buf = readFileSync(path.join(SOURCE, file));
  return (file.endsWith(".gz") ? gunzipSync(buf) : buf).toString("utf8");
}

function lines(text: string): string[] {
  return text.split(/\r?\n/).filter((l) => l.trim() !== "");
}

/** Numbers written in their shortest exact form (`1.510000000000000000e+02` → `151`). */
function num(s: string): number {
  const n = Number(s);
  if (!Number.isFinite(n)) throw new Error(`Not a number: ${s}`);
  return n;
}

function csvCell(v: Cell): string {
  if (v === null) return "";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

function writeCsv(name: string, header: string[], rows: Cell[][]): void {
  for (const r of rows) if (r.length !== header.length) throw new Error(`${name}: row width ${r.length}`);
  const body = [header, ...rows].map((r) => r.map(csvCell).join(",")).join("\n");
  writeFileSync(path.join(OUT, name), `${body}\n`);
  console.log(`${name}: ${rows.length} rows × ${header.length} columns`);
}

/** A scikit-learn CSV: the first line gives counts and class names; the last column is the class index. */
function sklearnClassification(
  file: string,
  features: string[],
  target: string,
  expectedRows: number,
): {
  header: string[];
  rows: Cell[][];
} {
  const [first, ...data] = lines(readText(file));
  const meta = first.split(",");
  const nSamples = Number(meta[0]);
  const nFeatures = Number(meta[1]);
  const classNames = meta.slice(2);
  if (nSamples !== expectedRows || nFeatures !== features.length || data.length !== nSamples)
    throw new Error(`${file}: unexpected shape ${nSamples}×${nFeatures} (${data.length} rows)`);
  const rows = data.map((line) => {
    const values = line.split(",");
    const label = classNames[Number(values[nFeatures])];
    if (label === undefined) throw new Error(`${file}: bad class in ${line}`);
    return [...values.slice(0, nFeatures).map(num), label];
  });
  return { header: [...features, target], rows };
}

const IRIS_FEATURES = ["sepal_length_cm", "sepal_width_cm", "petal_length_cm", "petal_width_cm"];

const WINE_FEATURES = [
  "alcohol",
  "malic_acid",
  "ash",
  "alcalinity_of_ash",
  "magnesium",
  "total_phenols",
  "flavanoids",
  "nonflavanoid_phenols",
  "proanthocyanins",
  "color_intensity",
  "hue",
  "od280/od315_of_diluted_wines",
  "proline",
];

const BREAST_CANCER_BASE = [
  "radius",
  "texture",
  "perimeter",
  "area",
  "smoothness",
  "compactness",
  "concavity",
  "concave points",
  "symmetry",
  "fractal dimension",
];
// scikit-learn's names ("mean radius", "radius error", "worst radius") with underscores for spaces.
const BREAST_CANCER_FEATURES = [
  ...BREAST_CANCER_BASE.map((b) => `mean ${b}`),
  ...BREAST_CANCER_BASE.map((b) => `${b} error`),
  ...BREAST_CANCER_BASE.map((b) => `worst ${b}`),
].map((n) => n.replaceAll(" ", "_"));

function buildDigits(): void {
  const data = lines(readText("digits.csv.gz"));
  // This file has no leading count line; tolerate one if a future copy adds it.
  const rows = data
    .map((l) => l.split(","))
    .filter((v) => v.length === 65)
    .map((v) => v.map(num));
  if (rows.length !== 1797) throw new Error(`digits: ${rows.length} rows`);
  const header: string[] = [];
  for (let r = 0; r < 8; r++) for (let c = 0; c < 8; c++) header.push(`pixel_${r}_${c}`);
  header.push("digit");
  writeCsv("digits.csv", header, rows);
}

function buildDiabetes(): void {
  const features = lines(readText("diabetes_data_raw.csv.gz")).map((l) => l.trim().split(/\s+/).map(num));
  const target = lines(readText("diabetes_target.csv.gz")).map((l) => num(l.trim()));
  if (features.length !== 442 || target.length !== 442 || features.some((f) => f.length !== 10))
    throw new Error("diabetes: unexpected shape");
  const header = ["age", "sex", "bmi", "bp", "s1", "s2", "s3", "s4", "s5", "s6", "target"];
  writeCsv(
    "diabetes.csv",
    header,
    features.map((f, i) => [...f, target[i]]),
  );
}

interface PenguinRecord {
  Species: string;
  Island: string;
  "Beak Length (mm)": number | null;
  "Beak Depth (mm)": number | null;
  "Flipper Length (mm)": number | null;
  "Body Mass (g)": number | null;
  Sex: string | null;
}

function buildPenguins(): void {
  const file = path.resolve("node_modules/vega-datasets/data/penguins.json");
  const records = JSON.parse(readFileSync(file, "utf8")) as PenguinRecord[];
  const sex = (s: string | null) => (s === "MALE" ? "male" : s === "FEMALE" ? "female" : null); // "." → missing
  writeCsv(
    "penguins.csv",
    ["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex"],
    records.map((p) => [
      p.Species,
      p.Island,
      p["Beak Length (mm)"],
      p["Beak Depth (mm)"],
      p["Flipper Length (mm)"],
      p["Body Mass (g)"],
      sex(p.Sex),
    ]),
  );
}

function main(): void {
  const iris = sklearnClassification("iris.csv", IRIS_FEATURES, "species", 150);
  writeCsv("iris.csv", iris.header, iris.rows);
  const wine = sklearnClassification("wine_data.csv", WINE_FEATURES, "class", 178);
  writeCsv("wine.csv", wine.header, wine.rows);
  const cancer = sklearnClassification("breast_cancer.csv", BREAST_CANCER_FEATURES, "diagnosis", 569);
  writeCsv("breast_cancer.csv", cancer.header, cancer.rows);
  buildDigits();
  buildDiabetes();
  buildPenguins();
}

main();
