import { Alert } from "@/components/ui/alert";
import { LayerlineError } from "@/sdk/src/errors";

/** A failed call as the problem the server returned: status, title, detail and each field's error. */
export function ProblemAlert({ error }: { error: unknown }) {
  if (!(error instanceof LayerlineError)) {
    return <Alert>{error instanceof Error ? error.message : "Something went wrong."}</Alert>;
  }
  const p = error.problem;
  return (
    <Alert>
      <span data-testid="problem">
        <span className="font-semibold">
          {error.status}
          {p?.title ? ` ${p.title}` : ""}
        </span>
        {p?.detail ? `: ${p.detail}` : ""}
      </span>
      {p?.errors && p.errors.length > 0 ? (
        <ul className="mt-1 list-disc pl-5">
          {p.errors.map((e) => (
            <li key={`${e.path}:${e.message}`}>
              <span className="font-mono text-xs">{e.path}</span> {e.message}
            </li>
          ))}
        </ul>
      ) : null}
    </Alert>
  );
}
