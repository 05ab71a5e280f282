import { Boxes } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Models" };

export default function ModelsPage() {
  return (
    <AreaIntro
      title="Models"
      description="Registered models, versions and lineage"
      icon={Boxes}
      emptyTitle="No registered models yet"
      emptyText="Push a model version from a training job or with the CLI to track its artifacts, lineage and evaluations."
      apiTag="models"
    />
  );
}
