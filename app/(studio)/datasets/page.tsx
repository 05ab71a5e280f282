import { Database } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Datasets" };

export default function DatasetsPage() {
  return (
    <AreaIntro
      title="Datasets"
      description="Your data and the built-in datasets"
      icon={Database}
      emptyTitle="No datasets yet"
      emptyText="Upload a CSV, JSON Lines, Parquet or image archive, or start from a built-in dataset."
      apiTag="datasets"
    />
  );
}
