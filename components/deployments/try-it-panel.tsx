"use client";

import { useMutation } from "@tanstack/react-query";
import { Braces, ListChecks, Play } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { api } from "@/lib/api/client";
import { useInferenceSchema } from "@/lib/api/deployments/use-inference-schema";
import { imageFieldOf } from "@/lib/deployments-ui/image-input";
import {
  blankFields,
  type FormValues,
  formFields,
  instanceFromValues,
  parseRawBody,
  valuesFromInstance,
} from "@/lib/deployments-ui/schema-form";
import { LayerlineError } from "@/sdk/src/errors";
import { ImageTryIt } from "./image-try-it";
import { KeyInput } from "./key-input";
import { forgetKey, useDeploymentKey } from "./key-store";
import { PredictionOutput } from "./prediction-output";
import { ProblemAlert } from "./problem-alert";
import { SchemaForm } from "./schema-form";
import type { Deployment, InferenceSchema } from "./types";

/** Field errors of a 422 for instance 0, by field name (`inputs.0.sepal_length` → `sepal_length`). */
function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof LayerlineError)) return {};
  const out: Record<string, string> = {};
  for (const e of error.problem?.errors ?? []) {
    const m = /^(?:body\.)?inputs\.0\.(.+)$/.exec(e.path);
    if (m) out[m[1]] = e.message;
  }
  return out;
}

function TryItForm({
  deployment,
  apiKey,
  schema,
}: {
  deployment: Deployment;
  apiKey: string;
  schema: InferenceSchema;
}) {
  const fields = useMemo(() => formFields(schema.input_schema), [schema.input_schema]);
  const example = schema.example.inputs[0];
  const [values, setValues] = useState<FormValues>(() => (fields ? valuesFromInstance(fields, example) : {}));
  const [raw, setRaw] = useState(() => JSON.stringify(schema.example, null, 2));
  const [mode, setMode] = useState<"form" | "json">(fields ? "form" : "json");
  const [rawError, setRawError] = useState<string | null>(null);
  const rawId = useId();
  const predict = useMutation({
    mutationFn: async (inputs: unknown[]) => {
      const { data } = await api.POST("/api/v1/inference/{deployment_id}/predict", {
        params: { path: { deployment_id: deployment.id } },
        headers: { Authorization: `Bearer ${apiKey}` },
        body: { inputs },
      });
      if (!data) throw new Error("No prediction returned.");
      return data;
    },
  });

  /** The fields the last form request left blank (sent as missing). */
  const [sentBlank, setSentBlank] = useState<string[]>([]);

  const switchTo = (next: "form" | "json") => {
    if (next === mode) return;
    if (next === "json" && fields)
      setRaw(JSON.stringify({ inputs: [instanceFromValues(fields, values)] }, null, 2));
    if (next === "form" && fields) {
      const parsed = parseRawBody(raw);
      if (parsed.ok) setValues(valuesFromInstance(fields, parsed.inputs[0]));
    }
    setRawError(null);
    setMode(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === "form" && fields) {
      setSentBlank(blankFields(fields, values));
      predict.mutate([instanceFromValues(fields, values)]);
      return;
    }
    setSentBlank([]);
    const parsed = parseRawBody(raw);
    setRawError(parsed.ok ? null : parsed.error);
    if (parsed.ok) predict.mutate(parsed.inputs);
  };

  const errors = mode === "form" ? fieldErrors(predict.error) : {};
  const outputs = predict.data?.outputs ?? [];
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <form onSubmit={submit} className="min-w-0 space-y-4" aria-label="Request">
        <div className="flex items-center justify-between gap-3">
          <h3 className="text-sm font-semibold">Request</h3>
          <fieldset className="inline-flex rounded-md border border-border p-0.5">
            <legend className="sr-only">Input mode</legend>
            {(
              [
                ["form", "Form", ListChecks],
                ["json", "Raw JSON", Braces],
              ] as const
            ).map(([m, label, Icon]) => (
              <button
                key={m}
                type="button"
                aria-pressed={mode === m}
                disabled={m === "form" && !fields}
                onClick={() => switchTo(m)}
                className={cn(
                  "inline-flex h-7 items-center gap-1.5 rounded px-2.5 text-xs font-medium disabled:opacity-40",
                  mode === m ? "bg-accent-soft text-accent" : "text-muted hover:text-fg",
                )}
              >
                <Icon aria-hidden className="h-3.5 w-3.5" /> {label}
              </button>
            ))}
          </fieldset>
        </div>
        {mode === "form" && fields ? (
          <SchemaForm fields={fields} values={values} errors={errors} onChange={setValues} />
        ) : (
          <div className="space-y-1">
            <label htmlFor={rawId} className="block text-xs text-muted">
              Predict body: <code className="font-mono">{'{"inputs": [instance, …]}'}</code>, up to 100
              instances
            </label>
            <textarea
              id={rawId}
              value={raw}
              onChange={(e) => setRaw(e.target.value)}
              rows={12}
              spellCheck={false}
              className="w-full rounded-md border border-border bg-panel px-3 py-2 font-mono text-xs text-fg focus:border-accent focus:outline-none"
            />
            {rawError ? <p className="text-xs text-danger">{rawError}</p> : null}
          </div>
        )}
        <Button type="submit" disabled={predict.isPending}>
          <Play aria-hidden className="h-4 w-4" /> {predict.isPending ? "Predicting…" : "Predict"}
        </Button>
      </form>
      <section aria-label="Response" className="min-w-0 space-y-3">
        <h3 className="text-sm font-semibold">Response</h3>
        {predict.isError ? (
          <ProblemAlert error={predict.error} />
        ) : predict.data ? (
          <div className="space-y-4">
            {outputs.map((o, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: outputs are positional, one per input
              <div key={i} className="rounded-md border border-border p-4">
                {outputs.length > 1 ? <p className="mb-2 text-xs text-muted">Instance {i}</p> : null}
                <PredictionOutput output={o} />
              </div>
            ))}
            {sentBlank.length > 0 ? (
              <Alert tone="warn">
                Sent without {sentBlank.map((n) => `“${n}”`).join(", ")}: the model filled{" "}
                {sentBlank.length === 1 ? "it" : "them"} in as in training (a number with the training mean),
                so this answer does not rest on {sentBlank.length === 1 ? "that value" : "those values"}.
              </Alert>
            ) : null}
            <p className="text-xs text-muted">Answered by revision {predict.data.revision}.</p>
          </div>
        ) : (
          <p className="rounded-md border border-dashed border-border px-4 py-8 text-center text-sm text-muted">
            The prediction appears here.
          </p>
        )}
      </section>
    </div>
  );
}

/**
 * Try it: a form generated from the input schema (or raw JSON), sent with the deployment key; an
 * image model takes a picture instead (image-try-it.tsx).
 */
export function TryItPanel({ deployment }: { deployment: Deployment }) {
  const apiKey = useDeploymentKey(deployment.id);
  const schema = useInferenceSchema(deployment.id, deployment.revision, apiKey);
  return (
    <Card>
      <CardHeader
        title="Try it"
        description="Send a prediction request to the deployment, exactly as a client does."
      />
      <div className="px-5 py-4">
        {!apiKey ? (
          <KeyInput deploymentId={deployment.id} keyPrefix={deployment.key_prefix} />
        ) : schema.isPending ? (
          <p className="text-sm text-muted" role="status">
            Reading the deployment's schema…
          </p>
        ) : schema.isError ? (
          <div className="space-y-3">
            <ProblemAlert error={schema.error} />
            <div className="flex gap-2">
              <Button variant="secondary" size="sm" onClick={() => schema.refetch()}>
                Try again
              </Button>
              <Button variant="ghost" size="sm" onClick={() => forgetKey(deployment.id)}>
                Use another key
              </Button>
            </div>
          </div>
        ) : imageFieldOf(schema.data.input_schema) ? (
          <ImageTryIt
            key={schema.data.revision}
            deployment={deployment}
            apiKey={apiKey}
            field={imageFieldOf(schema.data.input_schema) as string}
          />
        ) : (
          <TryItForm
            key={schema.data.revision}
            deployment={deployment}
            apiKey={apiKey}
            schema={schema.data}
          />
        )}
      </div>
    </Card>
  );
}
