import { DatasetBrowser } from "@/components/datasets/dataset-browser";

export const metadata = { title: "Datasets" };

export default function DatasetsPage() {
  return <DatasetBrowser />;
}
