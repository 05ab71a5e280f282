import Link from "next/link";
import { CandidateStateBadge } from "./audit-state-badge";
import { METRIC_LABEL, ms, pct, quality, usd } from "./format";
import type { ReportWorkload } from "./types";

/** A workload's candidates: quality, latency, estimated cost and savings; the run linked for the owner. */
export function CandidatesTable({ workload, linkRuns }: { workload: ReportWorkload; linkRuns: boolean }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full min-w-[720px] text-sm" data-testid="candidates-table">
        <caption className="sr-only">Candidates of {workload.name}</caption>
        <thead>
          <tr className="border-b border-border bg-panel-2/60 text-left text-xs text-muted">
            <th scope="col" className="px-4 py-2 font-medium">
              Candidate
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              State
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Quality
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              p50 / p95
            </th>
            <th scope="col" className="px-3 py-2 text-right font-medium">
              Per 1k calls
            </th>
            <th scope="col" className="px-4 py-2 text-right font-medium">
              Savings
            </th>
          </tr>
        </thead>
        <tbody>
          <tr className="border-b border-border bg-warn-soft/30">
            <td className="px-4 py-2">
              <span className="font-medium">{workload.model}</span>{" "}
              <span className="text-xs text-muted">today · {workload.current.calls} calls</span>
            </td>
            <td className="px-3 py-2 text-muted">logged</td>
            <td className="px-3 py-2 text-right">–</td>
            <td className="px-3 py-2 text-right font-mono tabular-nums">
              {ms(workload.current.latency_p50_ms)} / {ms(workload.current.latency_p95_ms)}
            </td>
            <td className="px-3 py-2 text-right font-mono tabular-nums">
              {usd(workload.current.cost_per_1k)}
            </td>
            <td className="px-4 py-2 text-right">–</td>
          </tr>
          {workload.candidates.map((c) => (
            <tr key={c.id} className="border-b border-border last:border-b-0" data-testid="candidate-row">
              <td className="px-4 py-2">
                <span className="font-medium">{c.recipe_id}</span>{" "}
                <span className="text-xs text-muted">from {c.base_model_id}</span>
                {c.id === workload.best_candidate_id ? (
                  <span className="ml-2 text-xs font-medium text-ok">recommended</span>
                ) : null}
                {linkRuns && c.run_id ? (
                  <Link href={`/training/${c.run_id}`} className="block text-xs text-accent hover:underline">
                    run {c.run_id}
                  </Link>
                ) : null}
              </td>
              <td className="px-3 py-2">
                <CandidateStateBadge state={c.state} />
              </td>
              <td
                className="px-3 py-2 text-right font-mono tabular-nums"
                title={c.metric ? METRIC_LABEL[c.metric] : undefined}
              >
                {quality(c.quality)}
              </td>
              <td className="px-3 py-2 text-right font-mono tabular-nums">
                {ms(c.latency_p50_ms)} / {ms(c.latency_p95_ms)}
              </td>
              <td className="px-3 py-2 text-right font-mono tabular-nums">{usd(c.cost_per_1k)}</td>
              <td className="px-4 py-2 text-right font-mono tabular-nums">{pct(c.savings.percent)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
