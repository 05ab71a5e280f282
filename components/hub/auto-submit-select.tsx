"use client";

import type { SelectHTMLAttributes } from "react";

/** A select that submits its form when changed (the form still works without script, with its button). */
export function AutoSubmitSelect(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} onChange={(e) => e.currentTarget.form?.requestSubmit()} />;
}
