import type { Metadata } from "next";
import { DeploymentConsole } from "@/components/deployments/deployment-console";
import { serverApi } from "@/lib/api/server-client";

type Params = { params: Promise<{ id: string }> };

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  const { id } = await params;
  try {
    const api = await serverApi();
    const { data } = await api.GET("/api/v1/deployments/{deployment_id}", {
      params: { path: { deployment_id: id } },
    });
    return { title: data?.name ?? "Deployment" };
  } catch {
    return { title: "Deployment" };
  }
}

export default async function DeploymentRoute({ params }: Params) {
  const { id } = await params;
  return <DeploymentConsole deploymentId={id} />;
}
