import type { paths } from "@/lib/api/schema";

type GetPath = { [P in keyof paths]: paths[P] extends { get: unknown } ? P : never }[keyof paths];

/**
 * The URL of a file download (a ZIP, a checkpoint, a DAG file) for a plain link: the browser streams
 * it to disk with the session cookie, as the Code tab's download does. The path is checked against
 * the generated API types, so a renamed route fails the type check instead of the download.
 */
export function downloadHref(
  path: GetPath,
  params: Record<string, string>,
  query: Record<string, string> = {},
): string {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ""));
  const search = new URLSearchParams(query).toString();
  return search ? `${filled}?${search}` : filled;
}
