import { Suspense } from "react";
import { ComparePage } from "@/components/training/compare-page";

export const metadata = { title: "Compare training jobs" };

export default function CompareRoute() {
  return (
    <Suspense>
      <ComparePage />
    </Suspense>
  );
}
