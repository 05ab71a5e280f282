import { ProjectsPage } from "@/components/projects/projects-page";

export const metadata = { title: "Projects" };

export default function Page() {
  return <ProjectsPage />;
}
