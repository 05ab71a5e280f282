import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { cache } from "react";
import { SharedProjectView } from "@/components/projects/shared-project-view";
import { serverApi } from "@/lib/api/server-client";
import { LayerlineError } from "@/sdk/src/errors";

type Props = { params: Promise<{ username: string; id: string }> };

const load = cache(async (username: string, id: string) => {
  const api = await serverApi();
  try {
    const [project, session] = await Promise.all([
      api.GET("/api/v1/users/{username}/projects/{project_id}", {
        params: { path: { username, project_id: id } },
      }),
      api.GET("/api/auth/session"),
    ]);
    return project.data ? { project: project.data, signedIn: Boolean(session.data?.user) } : null;
  } catch (err) {
    if (err instanceof LayerlineError && err.status === 404) return null;
    throw err;
  }
});

/** /u/{username}/projects/{id}: a public project, read-only, importable by anyone signed in. */
export default async function PublicProjectPage({ params }: Props) {
  const { username, id } = await params;
  const loaded = await load(username, id);
  if (!loaded) notFound();
  return (
    <SharedProjectView
      shared={loaded.project}
      source={{ username, projectId: id }}
      signedIn={loaded.signedIn}
    />
  );
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { username, id } = await params;
  const loaded = await load(username, id).catch(() => null);
  if (!loaded) return { title: "Project not found", robots: { index: false } };
  const title = `${loaded.project.name} by @${username}`;
  const description =
    loaded.project.description.slice(0, 160) ||
    `A ${loaded.project.node_count}-layer architecture shared by @${username} on Layerline.`;
  return { title, description, openGraph: { title, description, type: "article" } };
}
