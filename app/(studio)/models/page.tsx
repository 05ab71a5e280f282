import { ModelsPage } from "@/components/registry/models-page";

export const metadata = { title: "Models" };

export default function ModelsRoute() {
  return <ModelsPage />;
}
