import type { Metadata } from "next";
import { JobPage } from "@/components/training/job-page";
import { serverApi } from "@/lib/api/server-client";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const api = await serverApi();
    const { data } = await api.GET("/api/v1/training/jobs/{job_id}", { params: { path: { job_id: id } } });
    return { title: data?.name ?? "Training job" };
  } catch {
    return { title: "Training job" };
  }
}

export default async function TrainingJobRoute({ params }: Params) {
  const { id } = await params;
  return <JobPage jobId={id} />;
}
