import { ProjectEditor } from "@/components/editor/project-editor";

export const metadata = { title: "Editor" };

export default async function ProjectEditorPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <ProjectEditor projectId={id} />;
}
