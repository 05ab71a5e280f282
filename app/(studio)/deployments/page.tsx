import { DeploymentsPage } from "@/components/deployments/deployments-page";

export const metadata = { title: "Deployments" };

export default function DeploymentsRoute() {
  return <DeploymentsPage />;
}
