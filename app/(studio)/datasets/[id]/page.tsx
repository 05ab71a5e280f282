import type { Metadata } from "next";
import { Suspense } from "react";
import { DatasetPage } from "@/components/datasets/dataset-page";
import { serverApi } from "@/lib/api/server-client";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const api = await serverApi();
    const { data } = await api.GET("/api/v1/datasets/{dataset_id}", { params: { path: { dataset_id: id } } });
    return { title: data?.name ?? "Dataset" };
  } catch {
    return { title: "Dataset" };
  }
}

export default async function DatasetRoute({ params }: Params) {
  const { id } = await params;
  return (
    <Suspense>
      <DatasetPage id={id} />
    </Suspense>
  );
}
