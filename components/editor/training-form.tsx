"use client";

import { schemaFields, validateField } from "@/lib/editor/param-form";
import { trainingConfigSchema } from "@/lib/ml";
import { useEditorStore } from "./editor-store-context";
import { ParamInput } from "./param-input";

const FIELDS = schemaFields(trainingConfigSchema);

/** The training configuration, generated from the same zod schema the API validates with. */
export function TrainingForm() {
  const training = useEditorStore((s) => s.training);
  const setTraining = useEditorStore((s) => s.setTraining);
  return (
    <form className="space-y-4" aria-label="Training configuration" onSubmit={(e) => e.preventDefault()}>
      <div>
        <h2 className="text-base font-semibold">Training</h2>
        <p className="text-xs text-muted">How this architecture is trained. Saved with the diagram.</p>
      </div>
      {FIELDS.map((f) => (
        <ParamInput
          key={f.name}
          field={f}
          value={training[f.name as keyof typeof training]}
          validate={(text) => validateField(trainingConfigSchema, f, text)}
          onCommit={(v) => setTraining(f.name as keyof typeof training, v)}
        />
      ))}
    </form>
  );
}
