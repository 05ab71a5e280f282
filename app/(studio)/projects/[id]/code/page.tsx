import { CodeWorkspace } from "@/components/code/code-workspace";
import { parseTarget } from "@/components/code/format";

export const metadata = { title: "Code" };

export default async function ProjectCodePage({
  params,
  searchParams,
}: {
  params: Promise<{ id: string }>;
  searchParams: Promise<{ target?: string }>;
}) {
  const [{ id }, { target }] = await Promise.all([params, searchParams]);
  return <CodeWorkspace projectId={id} initialTarget={parseTarget(target)} />;
}
