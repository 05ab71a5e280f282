/** Axis titles of the evaluation charts (recharts `label` props), one style for all of them. */
export function xAxisLabel(value: string, color: string) {
  return { value, position: "insideBottom" as const, offset: -10, fill: color, fontSize: 11 };
}

export function yAxisLabel(value: string, color: string) {
  return {
    value,
    angle: -90,
    position: "insideLeft" as const,
    offset: 8,
    fill: color,
    fontSize: 11,
    style: { textAnchor: "middle" as const },
  };
}
