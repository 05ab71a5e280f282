"use client";

import { useId } from "react";
import { inputClass } from "@/components/ui/field";
import type { FormField, FormValues } from "@/lib/deployments-ui/schema-form";

function FieldInput({
  field,
  value,
  error,
  onChange,
}: {
  field: FormField;
  value: string;
  error?: string;
  onChange: (v: string) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: inputClass,
  };
  return (
    <div className={field.kind === "text" && field.multiline ? "space-y-1 sm:col-span-2" : "space-y-1"}>
      <label htmlFor={id} className="block truncate font-mono text-xs font-medium" title={field.name}>
        {field.name}
      </label>
      {field.kind === "number" ? (
        <input {...common} type="text" inputMode="decimal" onChange={(e) => onChange(e.target.value)} />
      ) : field.kind === "enum" ? (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          {field.nullable ? <option value="">(unknown)</option> : null}
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : field.multiline ? (
        <textarea
          {...common}
          rows={4}
          className="w-full rounded-md border border-border bg-panel px-3 py-2 text-sm text-fg focus:border-accent focus:outline-none"
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input {...common} type="text" onChange={(e) => onChange(e.target.value)} />
      )}
      {error ? (
        <p id={errorId} className="text-xs text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The instance as a form generated from the input schema; `errors` by field name (from a 422). */
export function SchemaForm({
  fields,
  values,
  errors,
  onChange,
}: {
  fields: readonly FormField[];
  values: FormValues;
  errors: Record<string, string>;
  onChange: (values: FormValues) => void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {fields.map((f) => (
        <FieldInput
          key={f.name}
          field={f}
          value={values[f.name] ?? ""}
          error={errors[f.name]}
          onChange={(v) => onChange({ ...values, [f.name]: v })}
        />
      ))}
    </div>
  );
}
