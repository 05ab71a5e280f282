/** One picture an image model was shown, with its true class and what the model predicted. */
export interface SamplePredictionView {
  image: string;
  actual: string;
  predicted: string;
  confidence: number;
}

/**
 * A few sample predictions of an image model (the hub model page, the registry version page): each
 * picture with its true class, the prediction and the model's confidence; a wrong one is marked.
 */
export function SamplePredictions({
  samples,
  title = "Sample predictions",
}: {
  samples: SamplePredictionView[];
  title?: string;
}) {
  if (samples.length === 0) return null;
  return (
    <section aria-label={title} data-testid="sample-predictions">
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      <ul className="grid grid-cols-3 gap-2">
        {samples.map((s) => {
          const right = s.actual === s.predicted;
          return (
            <li key={s.image} className="min-w-0 text-center">
              {/* biome-ignore lint/performance/noImgElement: a data: URL thumbnail stored with the model */}
              <img
                src={s.image}
                alt={`A ${s.actual}, predicted ${s.predicted}`}
                width={64}
                height={64}
                className="mx-auto aspect-square w-full max-w-20 rounded border border-border bg-black object-contain [image-rendering:pixelated]"
              />
              <p className="mt-1 truncate text-xs font-medium" title={`Predicted ${s.predicted}`}>
                {s.predicted}{" "}
                <span className="font-normal text-muted">{Math.round(s.confidence * 100)}%</span>
              </p>
              <p
                className={
                  right ? "truncate text-[11px] text-muted" : "truncate text-[11px] font-medium text-danger"
                }
              >
                {right ? `is ${s.actual}` : `was ${s.actual}`}
              </p>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
