import { Boxes } from "lucide-react";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { cache } from "react";
import { searchHref } from "@/components/hub/hub-format";
import { ModelGrid } from "@/components/hub/model-summary-card";
import { PagerLinks } from "@/components/hub/pager-links";
import { PublicProjectsList } from "@/components/profiles/public-projects-list";
import { serverApi } from "@/lib/api/server-client";
import { LayerlineError } from "@/sdk/src/errors";

type Props = {
  params: Promise<{ username: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
};

const PAGE_SIZE = 24;

const loadProfile = cache(async (username: string) => {
  const api = await serverApi();
  try {
    const { data } = await api.GET("/api/v1/users/{username}/profile", { params: { path: { username } } });
    return data ?? null;
  } catch (err) {
    if (err instanceof LayerlineError && err.status === 404) return null;
    throw err;
  }
});

/**
 * /u/{username}: a user's public profile, the hub models they share (yours also shows your drafts) and
 * their public projects.
 */
export default async function ProfilePage({ params, searchParams }: Props) {
  const { username } = await params;
  const rawPage = Number((await searchParams).page ?? "1");
  const page = Number.isInteger(rawPage) && rawPage > 1 ? rawPage : 1;
  const profile = await loadProfile(username);
  if (!profile) notFound();
  const api = await serverApi();
  const [models, session, projects] = await Promise.all([
    api.GET("/api/v1/hub/models", {
      params: { query: { owner: profile.username, sort: "updated", page, limit: PAGE_SIZE } },
    }),
    api.GET("/api/auth/session"),
    api.GET("/api/v1/users/{username}/projects", {
      params: { path: { username: profile.username }, query: { limit: 100 } },
    }),
  ]);
  const items = models.data?.items ?? [];
  const isMe = session.data?.user?.username === profile.username;
  return (
    <div className="space-y-10">
      <div className="flex items-center gap-5">
        <div
          aria-hidden
          className="flex h-16 w-16 shrink-0 items-center justify-center rounded-full bg-accent-soft text-2xl font-semibold text-accent"
        >
          {profile.username.charAt(0).toUpperCase()}
        </div>
        <div className="min-w-0">
          <h1 className="text-2xl font-semibold">{profile.display_name ?? profile.username}</h1>
          <p className="text-sm text-muted">
            @{profile.username} · joined{" "}
            {new Date(profile.joined_at).toLocaleDateString("en", { month: "long", year: "numeric" })}
            {models.data
              ? ` · ${models.data.total} model${models.data.total === 1 ? "" : "s"} on the hub`
              : ""}
          </p>
          {profile.bio ? <p className="mt-2 max-w-xl text-sm">{profile.bio}</p> : null}
        </div>
      </div>

      <section aria-labelledby="profile-models" className="space-y-3">
        <div className="flex items-center justify-between gap-4">
          <h2 id="profile-models" className="flex items-center gap-2 text-base font-semibold">
            <Boxes aria-hidden className="h-4 w-4 text-accent" /> Hub models
          </h2>
          {isMe ? (
            <Link href="/training" className="text-sm text-accent hover:underline">
              Publish a trained model
            </Link>
          ) : null}
        </div>
        {items.length > 0 ? (
          <>
            <ModelGrid models={items} label={`Models by ${profile.username}`} />
            {models.data && models.data.pages > 1 ? (
              <PagerLinks
                data={models.data}
                noun="model"
                href={(p) => `/u/${encodeURIComponent(profile.username)}${p > 1 ? `?page=${p}` : ""}`}
              />
            ) : null}
          </>
        ) : (
          <p className="rounded-lg border border-dashed border-border px-4 py-8 text-center text-sm text-muted">
            {isMe ? (
              <>You have not published a model yet: open a succeeded training job and use “Publish to hub”.</>
            ) : (
              <>
                {profile.username} has not published a public model yet.{" "}
                <Link href={searchHref({})} className="text-accent underline underline-offset-2">
                  Browse the hub
                </Link>
              </>
            )}
          </p>
        )}
      </section>

      <PublicProjectsList username={profile.username} projects={projects.data?.items ?? []} isMe={isMe} />
    </div>
  );
}

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const profile = await loadProfile((await params).username).catch(() => null);
  if (!profile) return { title: "User not found", robots: { index: false } };
  const title = `${profile.display_name ?? profile.username} (@${profile.username})`;
  const description =
    profile.bio?.slice(0, 160) || `Models and projects shared by @${profile.username} on Layerline.`;
  return {
    title,
    description,
    openGraph: { title, description, type: "profile", username: profile.username },
  };
}
