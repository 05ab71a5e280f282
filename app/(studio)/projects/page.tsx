import { FolderKanban } from "lucide-react";
import { AreaIntro } from "@/components/shell/coming-area";

export const metadata = { title: "Projects" };

export default function ProjectsPage() {
  return (
    <AreaIntro
      title="Projects"
      description="Architectures you design as diagrams"
      icon={FolderKanban}
      emptyTitle="No projects yet"
      emptyText="Create a project from a template to start designing a model as a diagram."
      apiTag="projects"
    />
  );
}
