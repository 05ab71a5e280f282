import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { AppShell } from "@/components/shell/app-shell";
import { serverApi } from "@/lib/api/server-client";

export const dynamic = "force-dynamic";

export default async function StudioLayout({ children }: { children: ReactNode }) {
  const api = await serverApi();
  const { data } = await api.GET("/api/auth/session");
  if (!data?.user) redirect("/login");
  return <AppShell user={data.user}>{children}</AppShell>;
}
