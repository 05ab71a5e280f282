import { Rocket } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Deployments" };

export default function DeploymentsPage() {
  return (
    <AreaIntro
      title="Deployments"
      description="Serve trained models behind a key"
      icon={Rocket}
      emptyTitle="No deployments yet"
      emptyText="Deploy a trained model version to get a prediction endpoint and an OpenAI-compatible surface."
      apiTag="deployments"
    />
  );
}
