import { Card, CardHeader } from "@/components/ui/card";
import { formatCount } from "@/lib/datasets-ui/format";
import type { LanguageModelResult } from "./types";

/** What a language-model evaluation read: windows, characters, the vocabulary. */
export function LanguageModelCard({ result }: { result: LanguageModelResult }) {
  const rows: [string, string][] = [
    ["Windows scored", formatCount(result.rows)],
    ["Characters in the split", formatCount(result.characters)],
    ["Characters outside the vocabulary", formatCount(result.unknown_characters)],
    ["Vocabulary", `${formatCount(result.vocabulary_size)} characters`],
    ["Window length", `${formatCount(result.sequence_length)} characters`],
  ];
  return (
    <Card>
      <CardHeader
        title="Next-character prediction"
        description="Each window of the text predicts the character after it; the loss is the mean cross-entropy (natural log), as training reports val_loss."
      />
      <dl className="grid grid-cols-1 gap-x-8 gap-y-2 px-5 py-4 text-sm sm:grid-cols-2">
        {rows.map(([label, value]) => (
          <div key={label} className="flex justify-between gap-4 border-b border-border/60 pb-1.5">
            <dt className="text-muted">{label}</dt>
            <dd className="font-medium tabular-nums">{value}</dd>
          </div>
        ))}
      </dl>
      {result.unknown_characters > 0 ? (
        <p className="px-5 pb-4 text-xs text-muted">
          Characters the model never saw are skipped, as a deployment skips them.
        </p>
      ) : null}
    </Card>
  );
}
