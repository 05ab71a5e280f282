"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { cn } from "@/components/ui/cn";
import { $api } from "@/lib/api/client";
import { projectKeys, projectQuery } from "@/lib/api/projects/keys";

/** The project's name, renamed in place (Enter or leaving the field saves it). */
export function ProjectNameInput({ projectId, name }: { projectId: string; name: string }) {
  const queryClient = useQueryClient();
  const [value, setValue] = useState(name);
  useEffect(() => setValue(name), [name]);
  const rename = $api.useMutation("put", "/api/v1/projects/{project_id}", {
    onSuccess: (project) => {
      queryClient.setQueryData(projectQuery(projectId).queryKey, (old) =>
        old ? { ...old, name: project.name, updated_at: project.updated_at } : project,
      );
      queryClient.invalidateQueries({ queryKey: projectKeys.list });
    },
    onError: () => setValue(name),
  });
  const commit = () => {
    const next = value.trim();
    if (!next) return setValue(name);
    if (next !== name) rename.mutate({ params: { path: { project_id: projectId } }, body: { name: next } });
  };
  return (
    <input
      aria-label="Project name"
      value={value}
      maxLength={120}
      onChange={(e) => setValue(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") e.currentTarget.blur();
        if (e.key === "Escape") {
          setValue(name);
          e.currentTarget.blur();
        }
      }}
      className={cn(
        "h-8 min-w-0 max-w-[18rem] flex-1 truncate rounded-md border border-transparent bg-transparent px-2 text-sm font-semibold",
        "hover:border-border focus:border-accent focus:bg-panel focus:outline-none",
      )}
    />
  );
}
