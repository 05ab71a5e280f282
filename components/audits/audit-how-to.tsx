"use client";

import { Link2, Terminal } from "lucide-react";
import Link from "next/link";
import { useState, useSyncExternalStore } from "react";
import { Card, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { Tabs } from "@/components/ui/tabs";
import { auditCliCommand, auditCurl, EXAMPLE_LOG_LINE } from "@/lib/audits/example";

type Way = "curl" | "cli";

const noop = () => () => {};

/** This server's origin (the example runs against it); a placeholder while rendering on the server. */
function useOrigin(): string {
  return useSyncExternalStore(
    noop,
    () => window.location.origin,
    () => "https://your-layerline-server",
  );
}

const STEPS = [
  [
    "Log the calls",
    "your app makes to a hosted model today: each call's input, output, and if you have them its latency (ms) and cost (USD).",
  ],
  [
    "Publish them",
    "as an audit: calls are grouped into workloads (one per model and task), with today's cost per 1,000 calls and latency.",
  ],
  [
    "Train candidates",
    "on each workload's calls: small models, scored on held-out calls for agreement with today's outputs, latency and cost.",
  ],
] as const;

/**
 * What an audit is, and a runnable example against this server: a curl that publishes a small
 * audit (then candidates are started from its report), or the CLI's command for a whole log.
 */
export function AuditHowTo() {
  const origin = useOrigin();
  const [way, setWay] = useState<Way>("curl");
  const code = way === "curl" ? auditCurl(origin) : auditCliCommand(origin);
  return (
    <Card data-testid="audit-how-to">
      <CardHeader
        title="How an audit works"
        description="Is a smaller model of your own good enough for a job you pay a hosted model to do? An audit measures it on your own calls."
      />
      <div className="grid gap-6 px-5 py-4 lg:grid-cols-[18rem_1fr]">
        <ol className="space-y-3 text-sm">
          {STEPS.map(([title, text], i) => (
            <li key={title} className="flex gap-3">
              <span
                aria-hidden
                className="flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-accent-soft text-xs font-semibold text-accent"
              >
                {i + 1}
              </span>
              <span>
                <span className="font-medium">{title}</span> <span className="text-muted">{text}</span>
              </span>
            </li>
          ))}
        </ol>
        <div className="min-w-0 space-y-3">
          <Tabs
            tabs={[
              { key: "curl", label: "Try it with curl", icon: <Link2 aria-hidden className="h-4 w-4" /> },
              {
                key: "cli",
                label: "A whole log with the CLI",
                icon: <Terminal aria-hidden className="h-4 w-4" />,
              },
            ]}
            active={way}
            onChange={setWay}
            idPrefix="audit-how-to"
            label="Ways to start an audit"
          />
          <div
            role="tabpanel"
            id={`audit-how-to-panel-${way}`}
            aria-labelledby={`audit-how-to-tab-${way}`}
            className="space-y-2"
          >
            <p className="text-sm text-muted">
              {way === "curl" ? (
                <>
                  Publishes a four-call audit to this server with a personal key (
                  <Link href="/account" className="font-medium text-fg underline">
                    Account → API keys
                  </Link>
                  ). Open it here, then “Retrain with another recipe” trains a candidate. A real workload
                  needs a few hundred calls.
                </>
              ) : (
                <>
                  From a Layerline checkout (after <code className="font-mono">npm install</code>): parses the
                  log, publishes it, trains and evaluates a candidate per workload and completes the report.
                  One call per line:
                </>
              )}
            </p>
            {way === "cli" ? (
              <pre className="whitespace-pre-wrap break-all rounded-md border border-border bg-panel-2 px-3 py-2 font-mono text-xs">
                {EXAMPLE_LOG_LINE}
              </pre>
            ) : null}
            <div className="relative">
              {/* Wrapped, not scrolled: every line readable without a scrolling region. */}
              <pre
                data-testid="audit-example"
                className="whitespace-pre-wrap break-words rounded-md border border-border bg-panel-2 px-3 py-2 pr-24 font-mono text-xs leading-relaxed"
              >
                {code}
              </pre>
              <div className="absolute top-2 right-2">
                <CopyButton value={code} label={way === "curl" ? "Copy curl" : "Copy"} />
              </div>
            </div>
          </div>
        </div>
      </div>
    </Card>
  );
}
