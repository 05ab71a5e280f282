import { JobsPage } from "@/components/training/jobs-page";

export const metadata = { title: "Training" };

export default function TrainingPage() {
  return <JobsPage />;
}
