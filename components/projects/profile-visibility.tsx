"use client";

import { useQueryClient } from "@tanstack/react-query";
import { Globe, Lock } from "lucide-react";
import Link from "next/link";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { useSession } from "@/lib/api/account/queries";
import { $api } from "@/lib/api/client";
import { projectKeys } from "@/lib/api/projects/keys";
import { useProject } from "@/lib/api/projects/queries";
import { LayerlineError } from "@/sdk/src/errors";

/**
 * Whether the project is public: listed on the owner's profile, readable by anyone and importable. The
 * project is read from (and written through) the same queries as the editor's, so both agree.
 */
export function ProfileVisibility({ projectId, enabled }: { projectId: string; enabled: boolean }) {
  const queryClient = useQueryClient();
  const project = useProject(projectId, { enabled });
  const session = useSession({ enabled });
  // Shown at once; the server's answer (or the error) settles it.
  const [wanted, setWanted] = useState<boolean | null>(null);
  const update = $api.useMutation("put", "/api/v1/projects/{project_id}", {
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: projectKeys.detail });
      setWanted(null);
    },
    onError: () => setWanted(null),
  });
  const isPublic = wanted ?? project.data?.visibility === "public";
  const username = session.data?.user?.username;
  return (
    <div className="space-y-2 rounded-lg border border-border p-3">
      <label className="flex cursor-pointer items-start gap-3">
        <input
          type="checkbox"
          className="mt-1 h-4 w-4 accent-[var(--color-accent)]"
          checked={isPublic}
          disabled={!project.data || update.isPending}
          onChange={(e) => {
            const next = e.currentTarget.checked;
            setWanted(next);
            update.mutate({
              params: { path: { project_id: projectId } },
              body: { visibility: next ? "public" : "private" },
            });
          }}
        />
        <span className="space-y-0.5">
          <span className="flex items-center gap-1.5 text-sm font-medium">
            {isPublic ? (
              <Globe aria-hidden className="h-4 w-4 text-accent" />
            ) : (
              <Lock aria-hidden className="h-4 w-4" />
            )}
            Public on my profile
          </span>
          <span className="block text-xs text-muted">
            Anyone can find it on your profile, view its diagram and import a copy. Links below stay private
            until you give them out.
          </span>
        </span>
      </label>
      {isPublic && username ? (
        <p className="text-xs">
          Listed on{" "}
          <Link
            href={`/u/${encodeURIComponent(username)}`}
            className="text-accent underline underline-offset-2"
          >
            your profile
          </Link>
          .
        </p>
      ) : null}
      {update.error instanceof LayerlineError ? <Alert>{update.error.message}</Alert> : null}
    </div>
  );
}
