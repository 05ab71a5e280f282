"use client";

import { Star } from "lucide-react";
import { useRouter } from "next/navigation";
import { type FormEvent, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Field, inputClass } from "@/components/ui/field";
import { useReviewModel } from "@/lib/api/hub/mutations";
import { LayerlineError } from "@/sdk/src/errors";

const RATING_WORDS = ["", "Poor", "Fair", "Good", "Very good", "Excellent"];

/** Write a review: a rating (required), text, and optionally an evaluation of yours whose figures are shown. */
export function ReviewForm({ modelId }: { modelId: string }) {
  const router = useRouter();
  const [rating, setRating] = useState(0);
  const [text, setText] = useState("");
  const [evaluationId, setEvaluationId] = useState("");
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<LayerlineError | null>(null);
  const [other, setOther] = useState<string | null>(null);
  const review = useReviewModel();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (rating < 1) return;
    setPending(true);
    setError(null);
    setOther(null);
    try {
      await review.mutateAsync({
        params: { path: { model_id: modelId } },
        body: {
          rating,
          text: text.trim(),
          ...(evaluationId.trim() ? { evaluation_id: evaluationId.trim() } : {}),
        },
      });
      router.refresh();
    } catch (err) {
      if (err instanceof LayerlineError) setError(err);
      else setOther("Something went wrong.");
    } finally {
      setPending(false);
    }
  };

  return (
    <form
      onSubmit={submit}
      aria-label="Write a review"
      className="space-y-3 rounded-lg border border-border bg-panel p-4"
    >
      <h3 className="text-sm font-semibold">Write a review</h3>
      <fieldset>
        <legend className="mb-1 text-sm font-medium">Rating</legend>
        <div className="flex items-center gap-1">
          {[1, 2, 3, 4, 5].map((n) => (
            <label key={n} className="relative cursor-pointer" title={RATING_WORDS[n]}>
              <input
                type="radio"
                name="rating"
                value={n}
                checked={rating === n}
                onChange={() => setRating(n)}
                className="peer absolute inset-0 cursor-pointer opacity-0"
                aria-label={`${n} star${n === 1 ? "" : "s"}`}
              />
              <Star
                aria-hidden
                className={cn(
                  "h-6 w-6 rounded-sm peer-focus-visible:outline-2 peer-focus-visible:outline-accent",
                  n <= rating ? "fill-current text-warn" : "text-muted",
                )}
              />
            </label>
          ))}
          <span className="ml-2 text-sm text-muted" aria-live="polite">
            {rating ? RATING_WORDS[rating] : "Pick 1 to 5 stars"}
          </span>
        </div>
      </fieldset>
      <div className="space-y-1">
        <label htmlFor="review-text" className="block text-sm font-medium">
          Review
        </label>
        <textarea
          id="review-text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          maxLength={5000}
          rows={3}
          placeholder="What did you use it for, and how well did it do?"
          className={cn(inputClass, "h-auto py-2")}
        />
      </div>
      <Field
        label="Evaluation (optional)"
        value={evaluationId}
        onChange={(e) => setEvaluationId(e.target.value)}
        placeholder="eval_…"
        maxLength={64}
        hint="The id of a succeeded evaluation of yours (on its page): its figures are shown with your review."
        error={error?.fieldError("evaluation_id")}
      />
      {error && !error.fieldError("evaluation_id") ? <Alert>{error.message}</Alert> : null}
      {other ? <Alert>{other}</Alert> : null}
      <Button type="submit" size="sm" disabled={pending || rating < 1}>
        {pending ? "Posting…" : "Post review"}
      </Button>
    </form>
  );
}
