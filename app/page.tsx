import { ArrowRight, Database, GitBranch, Rocket, TrendingUp } from "lucide-react";
import Link from "next/link";
import { redirect } from "next/navigation";
import { PublicHeader } from "@/components/shell/public-header";
import { buttonClass } from "@/components/ui/button";
import { serverApi } from "@/lib/api/server-client";

export const dynamic = "force-dynamic";

const STEPS = [
  {
    icon: GitBranch,
    title: "Design",
    text: "Draw the architecture as a diagram with live tensor shapes and parameter counts.",
  },
  {
    icon: Database,
    title: "Bring data",
    text: "Upload tables or image archives, profile them, tag columns and split them.",
  },
  {
    icon: TrendingUp,
    title: "Train",
    text: "Generate PyTorch code and train with live charts, here or on your own hardware.",
  },
  {
    icon: Rocket,
    title: "Deploy & share",
    text: "Serve predictions behind a key and publish the model on the public hub.",
  },
];

export default async function Home() {
  const api = await serverApi();
  const { data } = await api.GET("/api/auth/session");
  if (data?.user) redirect("/projects");
  return (
    <>
      <PublicHeader signedIn={false} />
      <main className="mx-auto max-w-6xl px-6 py-20">
        <h1 className="max-w-3xl text-4xl font-semibold tracking-tight sm:text-5xl">
          Design a model as a diagram. Train it, deploy it, share it.
        </h1>
        <p className="mt-4 max-w-2xl text-lg text-muted">
          Layerline is an open-source studio for machine-learning practitioners, with an HTTP API for
          everything the studio does.
        </p>
        <div className="mt-8 flex gap-3">
          <Link href="/signup" className={buttonClass("primary")}>
            Get started <ArrowRight aria-hidden className="h-4 w-4" />
          </Link>
          <Link href="/hub" className={buttonClass("secondary")}>
            Browse the hub
          </Link>
        </div>
        <div className="mt-16 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {STEPS.map(({ icon: Icon, title, text }) => (
            <div key={title} className="rounded-lg border border-border bg-panel p-5">
              <Icon aria-hidden className="h-5 w-5 text-accent" />
              <h2 className="mt-3 font-semibold">{title}</h2>
              <p className="mt-1 text-sm text-muted">{text}</p>
            </div>
          ))}
        </div>
      </main>
    </>
  );
}
