/**
 * `Content-Disposition: attachment` naming a file safely: a plain `filename` with anything outside
 * printable ASCII, and quotes and backslashes, replaced by `_` (no header injection, no broken
 * quoting), and the exact name as RFC 8187's `filename*` (UTF-8, percent-encoded, including the
 * `' ( ) *` that encodeURIComponent leaves as they are). The same for files streamed by the API and
 * for presigned URLs of the object store.
 */
export function attachmentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, "_");
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
