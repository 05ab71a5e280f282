"use client";

import { KeyRound } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { rememberKey } from "./key-store";

/**
 * Where the owner may paste the deployment key to test the deployment exactly as an app calls it
 * (the console otherwise calls with the owner's session). It stays in this tab's memory.
 */
export function KeyInput({ deploymentId, keyPrefix }: { deploymentId: string; keyPrefix: string }) {
  const [value, setValue] = useState("");
  const id = useId();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) rememberKey(deploymentId, value.trim());
  };
  return (
    <form onSubmit={submit} className="space-y-2 rounded-md border border-dashed border-border p-4">
      <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium">
        <KeyRound aria-hidden className="h-4 w-4 text-muted" /> Deployment key
      </label>
      <p className="text-sm text-muted">
        Optional: paste the deployment key (<span className="font-mono">{keyPrefix}…</span>) to send requests
        exactly as your apps do. It stays in this tab only. Lost it? Rotate the key.
      </p>
      <div className="flex gap-2">
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="ldk_…"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          className={inputClass}
        />
        <Button type="submit" disabled={!value.trim()}>
          Use key
        </Button>
      </div>
    </form>
  );
}
