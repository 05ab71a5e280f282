import type { Metadata } from "next";
import { Suspense } from "react";
import { ModelPage } from "@/components/registry/model-page";
import { serverApi } from "@/lib/api/server-client";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const api = await serverApi();
    const { data } = await api.GET("/api/v1/models/{model_id}", { params: { path: { model_id: id } } });
    return { title: data?.name ?? "Model" };
  } catch {
    return { title: "Model" };
  }
}

export default async function ModelRoute({ params }: Params) {
  const { id } = await params;
  return (
    <Suspense>
      <ModelPage modelId={id} />
    </Suspense>
  );
}
