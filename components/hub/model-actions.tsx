"use client";

import { GitFork, LogIn, PanelsTopLeft, Sparkles, Star } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { errorMessage } from "@/components/training/error-message";
import { Alert } from "@/components/ui/alert";
import { Button, buttonClass } from "@/components/ui/button";
import { useForkModel, useStar, useUnstar, useUseInStudio } from "@/lib/api/hub/mutations";
import { DownloadAllButton } from "./download-buttons";
import { formatCount, type HubModel, modelHref } from "./hub-format";

/** Star with an optimistic count: the button answers at once and goes back if the server refuses. */
function StarButton({ model }: { model: HubModel }) {
  const [state, setState] = useState({ starred: model.starred, stars: model.stars });
  const [error, setError] = useState<string | null>(null);
  const star = useStar();
  const unstar = useUnstar();
  const toggle = async () => {
    const before = state;
    setError(null);
    setState({ starred: !before.starred, stars: Math.max(0, before.stars + (before.starred ? -1 : 1)) });
    try {
      const path = { params: { path: { model_id: model.id } } };
      const data = before.starred ? await unstar.mutateAsync(path) : await star.mutateAsync(path);
      if (data) setState(data);
    } catch (err) {
      setState(before);
      setError(errorMessage(err));
    }
  };
  return (
    <span className="inline-flex flex-col gap-1">
      <span className="inline-flex overflow-hidden rounded-md border border-border bg-panel">
        <button
          type="button"
          onClick={toggle}
          aria-pressed={state.starred}
          className="inline-flex h-8 items-center gap-1.5 px-3 text-sm font-medium hover:bg-panel-2"
        >
          <Star aria-hidden className={state.starred ? "h-4 w-4 fill-current text-warn" : "h-4 w-4"} />
          {state.starred ? "Starred" : "Star"}
        </button>
        <span
          className="flex h-8 items-center border-l border-border px-2.5 text-sm tabular-nums text-muted"
          data-testid="star-count"
          title={`${state.stars} stars`}
        >
          {formatCount(state.stars)}
          <span className="sr-only"> stars</span>
        </span>
      </span>
      {error ? (
        <span role="alert" className="text-xs text-danger">
          {error}
        </span>
      ) : null}
    </span>
  );
}

/**
 * The model page's actions. Everyone: download every file. Signed in: star, fork, use in studio
 * (a new project with the model's architecture, opened in the editor), fine-tune from its weights. Signed out: a way to sign in.
 */
export function ModelActions({
  model,
  signedIn,
  fineTunable,
}: {
  model: HubModel;
  signedIn: boolean;
  /** It carries PyTorch weights (weights.pt) and its architecture: a fine-tuning run can start from it. */
  fineTunable: boolean;
}) {
  const router = useRouter();
  const [busy, setBusy] = useState<"fork" | "studio" | null>(null);
  const [error, setError] = useState<string | null>(null);
  const published = model.state === "published";
  const forkModel = useForkModel();
  const toStudio = useUseInStudio();

  const fork = async () => {
    setBusy("fork");
    setError(null);
    try {
      const data = await forkModel.mutateAsync({ params: { path: { model_id: model.id } }, body: {} });
      if (data) router.push(modelHref(data.id));
    } catch (err) {
      setError(errorMessage(err));
      setBusy(null);
    }
  };
  const openInStudio = async () => {
    setBusy("studio");
    setError(null);
    try {
      const data = await toStudio.mutateAsync({ params: { path: { model_id: model.id } } });
      if (data) router.push(`/projects/${encodeURIComponent(data.id)}`);
    } catch (err) {
      setError(errorMessage(err));
      setBusy(null);
    }
  };

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-start gap-2">
        {signedIn && published ? <StarButton model={model} /> : null}
        {signedIn && published ? (
          <Button variant="secondary" size="sm" onClick={fork} disabled={busy !== null}>
            <GitFork aria-hidden className="h-4 w-4" /> {busy === "fork" ? "Forking…" : "Fork"}
          </Button>
        ) : null}
        {signedIn && model.has_architecture ? (
          <Button size="sm" onClick={openInStudio} disabled={busy !== null}>
            <PanelsTopLeft aria-hidden className="h-4 w-4" />{" "}
            {busy === "studio" ? "Opening…" : "Use in studio"}
          </Button>
        ) : null}
        {signedIn && fineTunable ? (
          <Link
            href={`/training/fine-tune?base=${encodeURIComponent(model.id)}`}
            className={buttonClass("secondary", "sm")}
          >
            <Sparkles aria-hidden className="h-4 w-4" /> Fine-tune
          </Link>
        ) : null}
        <DownloadAllButton modelId={model.id} />
        {!signedIn ? (
          <Link
            href={`/login?next=${encodeURIComponent(modelHref(model.id))}`}
            className={buttonClass("ghost", "sm")}
          >
            <LogIn aria-hidden className="h-4 w-4" /> Sign in to star, fork or use it in the studio
          </Link>
        ) : null}
      </div>
      {error ? <Alert>{error}</Alert> : null}
    </div>
  );
}
