"use client";

import { Card, CardHeader } from "@/components/ui/card";
import { useCredits } from "@/lib/api/account/queries";

export function CreditsCard() {
  const { data } = useCredits();
  return (
    <Card>
      <CardHeader title="Credits" description="Training and serving draw on your credit balance." />
      <div className="px-5 py-4">
        <p className="text-3xl font-semibold tabular-nums" data-testid="credit-balance">
          {data ? data.balance.toLocaleString(undefined, { maximumFractionDigits: 3 }) : "–"}
          <span className="ml-2 text-sm font-normal text-muted">credits</span>
        </p>
        {data && data.recent.length > 0 ? (
          <table className="mt-4 w-full text-sm">
            <caption className="sr-only">Recent credit entries</caption>
            <thead>
              <tr className="text-left text-xs text-muted">
                <th className="py-1 font-medium">Date</th>
                <th className="py-1 font-medium">Reason</th>
                <th className="py-1 text-right font-medium">Amount</th>
              </tr>
            </thead>
            <tbody>
              {data.recent.map((e) => (
                <tr key={e.id} className="border-t border-border">
                  <td className="py-1.5 text-muted">{new Date(e.created_at).toLocaleDateString()}</td>
                  <td className="py-1.5">{e.reason}</td>
                  <td
                    className={`py-1.5 text-right tabular-nums ${e.amount < 0 ? "text-danger" : "text-ok"}`}
                  >
                    {e.amount > 0 ? "+" : ""}
                    {e.amount.toLocaleString()}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </Card>
  );
}
