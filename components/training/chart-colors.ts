"use client";

import { useDarkTheme } from "@/components/code/use-dark-theme";

/** Line colours of the metric charts, readable on the light and the dark panel. */
export function useChartColors() {
  const dark = useDarkTheme();
  return dark
    ? { train: "#8b85ff", validation: "#fb923c", grid: "#2a2f3a", axis: "#9aa1b2", select: "#8b85ff" }
    : { train: "#4f46e5", validation: "#ea580c", grid: "#e2e4ea", axis: "#555b6b", select: "#4f46e5" };
}
