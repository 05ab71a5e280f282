"use client";

import { useEffect, useId, useRef, useState } from "react";
import { cn } from "@/components/ui/cn";
import { inputClass } from "@/components/ui/field";
import { fieldLabel, fieldText, type ParamField, type ParseResult, rangeText } from "@/lib/editor/param-form";

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function hintOf(field: ParamField): string {
  const parts: string[] = [];
  if (field.description) parts.push(field.description);
  const range = rangeText(field);
  if (range) parts.push(`(${range})`);
  if (field.kind === "int_array") parts.push("(comma-separated)");
  if (field.optional && field.kind !== "boolean") parts.push("(optional)");
  return parts.join(" ");
}

/**
 * One generated form control: number/int and array inputs validated as the user types, enums as
 * selects, booleans as checkboxes. Valid values are committed at once; invalid text stays in the
 * input with its message and is not committed.
 */
export function ParamInput({
  field,
  value,
  validate,
  onCommit,
  externalError,
  disabled,
}: {
  field: ParamField;
  value: unknown;
  validate: (text: string) => ParseResult;
  onCommit: (value: unknown) => void;
  /** A problem analysis reports for this field (e.g. a rule spanning two fields). */
  externalError?: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [text, setText] = useState(() => fieldText(field, value));
  const [error, setError] = useState<string | null>(null);
  const committed = useRef(value);

  // Undo, redo or a restore changed the value under us: show it.
  useEffect(() => {
    if (!same(value, committed.current)) {
      committed.current = value;
      setText(fieldText(field, value));
      setError(null);
    }
  }, [value, field]);

  const change = (next: string) => {
    setText(next);
    const r = validate(next);
    if (!r.ok) {
      setError(r.error);
      return;
    }
    setError(null);
    committed.current = r.value;
    if (!same(r.value, value)) onCommit(r.value);
  };

  const message = error ?? externalError ?? null;
  const describedBy = `${id}-hint${message ? ` ${id}-error` : ""}`;
  const label = fieldLabel(field.name);

  if (field.kind === "boolean") {
    return (
      <div className="space-y-0.5">
        <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium">
          <input
            id={id}
            type="checkbox"
            className="h-4 w-4 rounded border-border accent-[var(--accent)]"
            checked={text === "true"}
            disabled={disabled}
            aria-describedby={describedBy}
            onChange={(e) => change(String(e.target.checked))}
          />
          {label}
        </label>
        <p id={`${id}-hint`} className="pl-6 text-xs text-muted">
          {hintOf(field)}
        </p>
      </div>
    );
  }

  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {field.kind === "enum" ? (
        <select
          id={id}
          className={inputClass}
          value={text}
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(e) => change(e.target.value)}
        >
          {field.optional ? <option value="">(not set)</option> : null}
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
          inputMode={field.kind === "int_array" ? "text" : field.kind === "int" ? "numeric" : "decimal"}
          autoComplete="off"
          spellCheck={false}
          className={cn(inputClass, "font-mono", message && "border-danger focus:border-danger")}
          value={text}
          disabled={disabled}
          placeholder={field.optional ? "not set" : undefined}
          aria-invalid={message ? true : undefined}
          aria-describedby={describedBy}
          onChange={(e) => change(e.target.value)}
        />
      )}
      {message ? (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-danger">
          {message}
        </p>
      ) : null}
      <p id={`${id}-hint`} className="text-xs text-muted">
        {hintOf(field)}
      </p>
    </div>
  );
}
