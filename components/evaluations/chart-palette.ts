"use client";

import { useDarkTheme } from "@/components/code/use-dark-theme";

const LIGHT = [
  "#4f46e5",
  "#ea580c",
  "#0f766e",
  "#be185d",
  "#a16207",
  "#0369a1",
  "#7c3aed",
  "#15803d",
  "#b91c1c",
  "#475569",
];
const DARK = [
  "#8b85ff",
  "#fb923c",
  "#2dd4bf",
  "#f472b6",
  "#facc15",
  "#38bdf8",
  "#c084fc",
  "#4ade80",
  "#f87171",
  "#cbd5e1",
];

/** Distinct line colours (one per class) and the axis colours, for the light and the dark panel. */
export function useEvaluationChartColors() {
  const dark = useDarkTheme();
  return {
    series: dark ? DARK : LIGHT,
    grid: dark ? "#2a2f3a" : "#e2e4ea",
    axis: dark ? "#9aa1b2" : "#555b6b",
    chance: dark ? "#5b6170" : "#a3a8b5",
  };
}
