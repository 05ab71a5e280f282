import { Star } from "lucide-react";
import { cn } from "@/components/ui/cn";

/** A rating as five stars, read out as "4 out of 5 stars". */
export function RatingStars({ rating, className }: { rating: number; className?: string }) {
  const full = Math.round(rating);
  return (
    <span
      role="img"
      aria-label={`${rating.toFixed(Number.isInteger(rating) ? 0 : 1)} out of 5 stars`}
      className={cn("inline-flex", className)}
    >
      {[1, 2, 3, 4, 5].map((i) => (
        <Star
          key={i}
          aria-hidden
          className={cn("h-4 w-4", i <= full ? "fill-current text-warn" : "text-border")}
        />
      ))}
    </span>
  );
}
