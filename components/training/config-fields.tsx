"use client";

import { useId } from "react";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { fieldLabel, type ParamField, rangeText } from "@/lib/editor/param-form";

/**
 * One field of the job configuration, generated from the zod schema: a select for an enum, a text
 * input (checked as the user types) for a number. Its message is the typed value's problem, else the
 * server's.
 */
export function ConfigField({
  field,
  text,
  error,
  onChange,
}: {
  field: ParamField;
  text: string;
  error?: string;
  onChange: (text: string) => void;
}) {
  const id = useId();
  const range = rangeText(field);
  const hint = range ? range.charAt(0).toUpperCase() + range.slice(1) : field.description;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium" title={field.description}>
        {fieldLabel(field.name)}
      </label>
      {field.kind === "enum" ? (
        <select
          id={id}
          className={inputClass}
          value={text}
          onChange={(e) => onChange(e.target.value)}
          aria-describedby={`${id}-hint`}
        >
          {field.options.map((o) => (
            <option key={o} value={o}>
              {o}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type="text"
          inputMode={field.kind === "int" ? "numeric" : "decimal"}
          autoComplete="off"
          spellCheck={false}
          className={cn(inputClass, "font-mono", error && "border-danger focus:border-danger")}
          value={text}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
      {error ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
          {error}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="text-xs text-muted">
        {hint}
      </p>
    </div>
  );
}
