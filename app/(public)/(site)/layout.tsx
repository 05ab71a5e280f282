import type { ReactNode } from "react";
import { PublicHeader } from "@/components/shell/public-header";
import { serverApi } from "@/lib/api/server-client";

export const dynamic = "force-dynamic";

/** Public pages (hub, shared projects and audits, profiles) work without signing in. */
export default async function SiteLayout({ children }: { children: ReactNode }) {
  const api = await serverApi();
  const { data } = await api.GET("/api/auth/session");
  return (
    <>
      <PublicHeader signedIn={Boolean(data?.user)} />
      <main className="mx-auto max-w-6xl px-6 py-10">{children}</main>
    </>
  );
}
