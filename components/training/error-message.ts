import { LayerlineError } from "@/sdk/src/errors";

/** The message of a failed call (the client's middleware throws an LayerlineError with the problem's detail). */
export function errorMessage(err: unknown): string {
  if (err instanceof LayerlineError || err instanceof Error) return err.message;
  if (err && typeof err === "object" && "detail" in err && typeof err.detail === "string") return err.detail;
  return "Something went wrong.";
}
