import { notFound } from "next/navigation";
import { SharedProjectView } from "@/components/projects/shared-project-view";
import { serverApi } from "@/lib/api/server-client";
import { LayerlineError } from "@/sdk/src/errors";

async function load(token: string) {
  const api = await serverApi();
  try {
    const [shared, session] = await Promise.all([
      api.GET("/api/v1/shared/{token}", { params: { path: { token } } }),
      api.GET("/api/auth/session"),
    ]);
    return { shared: shared.data, signedIn: Boolean(session.data?.user) };
  } catch (err) {
    if (err instanceof LayerlineError && err.status === 404) return null;
    throw err;
  }
}

export default async function SharedProjectPage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const loaded = await load(token);
  if (!loaded?.shared) notFound();
  return <SharedProjectView shared={loaded.shared} source={{ token }} signedIn={loaded.signedIn} />;
}

export async function generateMetadata({ params }: { params: Promise<{ token: string }> }) {
  const loaded = await load((await params).token).catch(() => null);
  return { title: loaded?.shared ? loaded.shared.name : "Shared project", robots: { index: false } };
}
