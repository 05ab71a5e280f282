import { notFound } from "next/navigation";
import { ApiError } from "@/lib/api/client";
import { serverApi } from "@/lib/api/server-client";

export default async function ProfilePage({ params }: { params: Promise<{ username: string }> }) {
  const { username } = await params;
  const api = await serverApi();
  try {
    const { data } = await api.GET("/api/v1/users/{username}/profile", { params: { path: { username } } });
    if (!data) notFound();
    return (
      <div className="flex items-center gap-5">
        <div className="flex h-16 w-16 items-center justify-center rounded-full bg-accent-soft text-2xl font-semibold text-accent">
          {data.username.charAt(0).toUpperCase()}
        </div>
        <div>
          <h1 className="text-2xl font-semibold">{data.display_name ?? data.username}</h1>
          <p className="text-sm text-muted">
            @{data.username} · joined{" "}
            {new Date(data.joined_at).toLocaleDateString("en", { month: "long", year: "numeric" })}
          </p>
          {data.bio ? <p className="mt-2 max-w-xl text-sm">{data.bio}</p> : null}
        </div>
      </div>
    );
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) notFound();
    throw err;
  }
}

export async function generateMetadata({ params }: { params: Promise<{ username: string }> }) {
  return { title: `@${(await params).username}` };
}
