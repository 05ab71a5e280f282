/**
 * The message of a failed call. The generated hooks type errors as the problem body, but the client's
 * middleware throws an LayerlineError (an Error with the problem's detail as message); both are handled.
 */
export function errorMessage(err: unknown): string {
  if (err instanceof Error) return err.message;
  if (err && typeof err === "object" && "detail" in err && typeof err.detail === "string") return err.detail;
  return "Something went wrong.";
}
