"use client";

import Link from "next/link";
import { useJob } from "@/lib/api/training/queries";

/** A link to the training job (or fine-tuning run) a deployment serves, by its name once known. */
export function JobLink({ jobId, underline = false }: { jobId: string | null; underline?: boolean }) {
  const job = useJob(jobId, { enabled: jobId !== null, retry: false });
  if (!jobId) return <span className="text-muted">–</span>;
  return (
    <Link
      href={`/training/${jobId}`}
      className={
        underline
          ? "truncate text-accent underline underline-offset-2"
          : "truncate text-accent hover:underline"
      }
      title={jobId}
    >
      {job.data?.name ?? (job.isError ? jobId : "…")}
    </Link>
  );
}
