"use client";

import { useEffect, useState } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { useInferenceSchema } from "@/lib/api/deployments/use-inference-schema";
import { imageFieldOf } from "@/lib/deployments-ui/image-input";
import { buildSnippets, KEY_ENV, type SnippetId } from "@/lib/deployments-ui/snippets";
import { useDeploymentKey } from "./key-store";
import type { Deployment } from "./types";

/** Copyable calls in several languages, with absolute URLs and the key read from the environment. */
export function SnippetsPanel({
  deployment,
  languageModel,
}: {
  deployment: Deployment;
  languageModel: boolean;
}) {
  const apiKey = useDeploymentKey(deployment.id);
  const schema = useInferenceSchema(deployment.id, deployment.revision, apiKey);
  const [origin, setOrigin] = useState("");
  useEffect(() => setOrigin(window.location.origin), []);
  const example = schema.data?.example ?? { inputs: [languageModel ? { text: "We hold these truths" } : {}] };
  const imageField = schema.data ? imageFieldOf(schema.data.input_schema) : null;
  const snippets = buildSnippets({ origin, deploymentId: deployment.id, example, languageModel, imageField });
  const [selected, setSelected] = useState<SnippetId>("curl");
  const shown = snippets.find((s) => s.id === selected) ?? snippets[0];
  return (
    <Card>
      <CardHeader
        title="Snippets"
        description={
          <>
            Set <code className="font-mono text-xs">{KEY_ENV}</code> to the deployment key, then run one of
            these.
          </>
        }
      />
      <div className="space-y-3 px-5 py-4">
        <div role="tablist" aria-label="Language" className="flex flex-wrap gap-1 border-b border-border">
          {snippets.map((s) => (
            <button
              key={s.id}
              type="button"
              role="tab"
              aria-selected={s.id === shown.id}
              onClick={() => setSelected(s.id)}
              className={cn(
                "-mb-px border-b-2 px-3 py-1.5 text-sm font-medium",
                s.id === shown.id
                  ? "border-accent text-accent"
                  : "border-transparent text-muted hover:text-fg",
              )}
            >
              {s.label}
            </button>
          ))}
        </div>
        <div className="relative" role="tabpanel" aria-label={shown.label}>
          <div className="absolute top-2 right-2">
            <CopyButton value={shown.code} />
          </div>
          <pre
            className="overflow-x-auto rounded-md border border-border bg-panel-2/60 p-4 pr-28 font-mono text-xs leading-5"
            data-testid="snippet"
          >
            <code>{shown.code}</code>
          </pre>
        </div>
        {!schema.data ? (
          <p className="text-xs text-muted">
            The example body is filled in from the deployment's schema once its key is given in Try it.
          </p>
        ) : null}
      </div>
    </Card>
  );
}
