import { TrendingUp } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Training" };

export default function TrainingPage() {
  return (
    <AreaIntro
      title="Training"
      description="Training jobs with live charts"
      icon={TrendingUp}
      emptyTitle="No training jobs yet"
      emptyText="Train a project on a dataset from its editor; jobs, their live metrics and checkpoints appear here."
      apiTag="training"
    />
  );
}
