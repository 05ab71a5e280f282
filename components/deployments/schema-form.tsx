"use client";

import { useId } from "react";
import { inputClass } from "@/components/ui/field";
import type { FormField, FormValues } from "@/lib/deployments-ui/schema-form";

function FieldInput({
  field,
  value,
  unknown,
  error,
  onChange,
  onUnknown,
}: {
  field: FormField;
  value: string;
  unknown: boolean;
  error?: string;
  onChange: (v: string) => void;
  onUnknown: (unknown: boolean) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value: unknown ? "" : value,
    // A nullable select's “(unknown)” and a language model's (possibly empty) text are answers too.
    required:
      !(field.kind === "text" && field.multiline) && !(field.nullable && (unknown || field.kind === "enum")),
    disabled: unknown,
    placeholder: unknown ? "filled in as in training" : undefined,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
    className: inputClass,
  };
  // A field the model can fill in (the schema allows null) may be sent as unknown; selects say so
  // with their own “(unknown)” option.
  const canBeUnknown = field.nullable && field.kind !== "enum";
  const description = "description" in field ? field.description : undefined;
  return (
    <div className={field.kind === "text" && field.multiline ? "space-y-1 sm:col-span-2" : "space-y-1"}>
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="block truncate font-mono text-xs font-medium" title={field.name}>
          {field.name}
        </label>
        {canBeUnknown ? (
          <label
            className="inline-flex shrink-0 items-center gap-1 text-xs text-muted"
            title={description ?? "Send null: the model fills it in as training did."}
          >
            <input
              type="checkbox"
              checked={unknown}
              onChange={(e) => onUnknown(e.target.checked)}
              className="accent-[var(--accent)]"
            />
            unknown
            <span className="sr-only"> {field.name}</span>
          </label>
        ) : null}
      </div>
      {field.kind === "number" ? (
        <input {...common} type="text" inputMode="decimal" onChange={(e) => onChange(e.target.value)} />
      ) : field.kind === "enum" ? (
        <select {...common} onChange={(e) => onChange(e.target.value)}>
          {field.nullable ? <option value="">(unknown)</option> : null}
          {!field.nullable && value === "" ? (
            <option value="" disabled>
              Choose…
            </option>
          ) : null}
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

/**
 * The instance as a form generated from the input schema; `errors` by field name (blank fields, or
 * a 422's); `unknown` the fields sent as null, for the model to fill in as in training.
 */
export function SchemaForm({
  fields,
  values,
  unknown,
  errors,
  onChange,
  onUnknownChange,
}: {
  fields: readonly FormField[];
  values: FormValues;
  unknown: readonly string[];
  errors: Record<string, string>;
  onChange: (values: FormValues) => void;
  onUnknownChange: (unknown: string[]) => void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      {fields.map((f) => (
        <FieldInput
          key={f.name}
          field={f}
          value={values[f.name] ?? ""}
          unknown={f.nullable && unknown.includes(f.name)}
          error={errors[f.name]}
          onChange={(v) => onChange({ ...values, [f.name]: v })}
          onUnknown={(on) =>
            onUnknownChange(on ? [...unknown, f.name] : unknown.filter((name) => name !== f.name))
          }
        />
      ))}
    </div>
  );
}
