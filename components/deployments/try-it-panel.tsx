"use client";

import { useMutation } from "@tanstack/react-query";
import { Braces, KeyRound, ListChecks, Play, UserRound } from "lucide-react";
import { type FormEvent, useId, useMemo, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { predictFromConsole } from "@/lib/api/deployments/predict";
import { useInferenceSchema } from "@/lib/api/deployments/use-inference-schema";
import { imageFieldOf } from "@/lib/deployments-ui/image-input";
import {
  type FormValues,
  formFields,
  instanceFromValues,
  missingFields,
  parseRawBody,
  unknownFields,
  unknownFromInstance,
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
  apiKey: string | null;
  schema: InferenceSchema;
}) {
  const fields = useMemo(() => formFields(schema.input_schema), [schema.input_schema]);
  const example = schema.example.inputs[0];
  const [values, setValues] = useState<FormValues>(() => (fields ? valuesFromInstance(fields, example) : {}));
  const [unknown, setUnknown] = useState<string[]>(() =>
    fields ? unknownFromInstance(fields, example) : [],
  );
  /** Blank fields found when the form was last sent (nothing was sent then). */
  const [blank, setBlank] = useState<string[]>([]);
  const [raw, setRaw] = useState(() => JSON.stringify(schema.example, null, 2));
  const [mode, setMode] = useState<"form" | "json">(fields ? "form" : "json");
  const [rawError, setRawError] = useState<string | null>(null);
  const rawId = useId();
  const predict = useMutation({
    mutationFn: (inputs: unknown[]) => predictFromConsole(deployment.id, inputs, apiKey),
  });

  /** The fields the last form request sent as unknown (filled in by the model). */
  const [sentUnknown, setSentUnknown] = useState<string[]>([]);

  const switchTo = (next: "form" | "json") => {
    if (next === mode) return;
    if (next === "json" && fields)
      setRaw(JSON.stringify({ inputs: [instanceFromValues(fields, values, unknown)] }, null, 2));
    if (next === "form" && fields) {
      const parsed = parseRawBody(raw);
      if (parsed.ok) {
        setValues(valuesFromInstance(fields, parsed.inputs[0]));
        setUnknown(unknownFromInstance(fields, parsed.inputs[0]));
      }
    }
    setBlank([]);
    setRawError(null);
    setMode(next);
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (mode === "form" && fields) {
      // Every field is required: a blank one is named here and nothing is sent.
      const missing = missingFields(fields, values, unknown);
      setBlank(missing);
      if (missing.length > 0) {
        predict.reset();
        return;
      }
      setSentUnknown(unknownFields(fields, values, unknown));
      predict.mutate([instanceFromValues(fields, values, unknown)]);
      return;
    }
    setSentUnknown([]);
    const parsed = parseRawBody(raw);
    setRawError(parsed.ok ? null : parsed.error);
    if (parsed.ok) predict.mutate(parsed.inputs);
  };

  const errors: Record<string, string> = mode === "form" ? fieldErrors(predict.error) : {};
  const canBeUnknown = new Set(fields?.filter((f) => f.nullable).map((f) => f.name));
  for (const name of blank)
    errors[name] = canBeUnknown.has(name)
      ? "Required: enter a value, or tick “unknown” to let the model fill it in."
      : "Required: enter a value.";
  const outputs = predict.data?.outputs ?? [];
  return (
    <div className="grid items-start gap-6 lg:grid-cols-2">
      <form onSubmit={submit} noValidate className="min-w-0 space-y-4" aria-label="Request">
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
          <SchemaForm
            fields={fields}
            values={values}
            unknown={unknown}
            errors={errors}
            onChange={(next) => {
              setValues(next);
              if (blank.length > 0)
                setBlank(missingFields(fields, next, unknown).filter((n) => blank.includes(n)));
            }}
            onUnknownChange={(next) => {
              setUnknown(next);
              if (blank.length > 0)
                setBlank(missingFields(fields, values, next).filter((n) => blank.includes(n)));
            }}
          />
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
        {blank.length > 0 ? (
          <div data-testid="blank-fields">
            <Alert tone="danger">
              Not sent: fill in {blank.map((n) => `“${n}”`).join(", ")}. The model needs every field to
              answer.
            </Alert>
          </div>
        ) : predict.isError ? (
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
            {sentUnknown.length > 0 ? (
              <Alert tone="warn">
                Sent with {sentUnknown.map((n) => `“${n}”`).join(", ")} unknown: the model filled{" "}
                {sentUnknown.length === 1 ? "it" : "them"} in as in training (a number with the training
                mean), so this answer does not rest on{" "}
                {sentUnknown.length === 1 ? "that value" : "those values"}.
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
 * Which credential the console's calls use: the owner's session unless this tab holds the
 * deployment's key (just created or rotated, or pasted to test as an app calls).
 */
function CredentialNote({ deployment, apiKey }: { deployment: Deployment; apiKey: string | null }) {
  const [asking, setAsking] = useState(false);
  if (apiKey)
    return (
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-panel-2 px-3 py-2 text-xs text-muted">
        <span className="flex items-center gap-1.5">
          <KeyRound aria-hidden className="h-3.5 w-3.5" />
          <span data-testid="try-it-credential">
            Calls from this page use the deployment key (
            <span className="font-mono">{deployment.key_prefix}…</span>), as your apps do.
          </span>
        </span>
        <Button variant="ghost" size="sm" onClick={() => forgetKey(deployment.id)}>
          Use my session instead
        </Button>
      </div>
    );
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2 rounded-md bg-panel-2 px-3 py-2 text-xs text-muted">
        <span className="flex items-center gap-1.5">
          <UserRound aria-hidden className="h-3.5 w-3.5" />
          <span data-testid="try-it-credential">
            Calls from this page use your session; apps use a deployment key (
            <span className="font-mono">{deployment.key_prefix}…</span>).
          </span>
        </span>
        <Button variant="ghost" size="sm" aria-expanded={asking} onClick={() => setAsking(!asking)}>
          {asking ? "Cancel" : "Test with the deployment key"}
        </Button>
      </div>
      {asking ? <KeyInput deploymentId={deployment.id} keyPrefix={deployment.key_prefix} /> : null}
    </div>
  );
}

/**
 * Try it: a form generated from the input schema (or raw JSON); an image model takes a picture
 * instead (image-try-it.tsx). Sent with the owner's session, or with the deployment key when this
 * tab holds it (exactly as a client sends it).
 */
export function TryItPanel({ deployment }: { deployment: Deployment }) {
  const apiKey = useDeploymentKey(deployment.id);
  const schema = useInferenceSchema(deployment.id, deployment.revision, apiKey);
  return (
    <Card>
      <CardHeader
        title="Try it"
        description="Send a prediction request to the deployment and see its answer, as a client gets it."
      />
      <div className="space-y-4 px-5 py-4">
        <CredentialNote deployment={deployment} apiKey={apiKey} />
        {schema.isPending ? (
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
              {apiKey ? (
                <Button variant="ghost" size="sm" onClick={() => forgetKey(deployment.id)}>
                  Use my session instead
                </Button>
              ) : null}
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
