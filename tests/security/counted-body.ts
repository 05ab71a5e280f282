/**
 * A request body of `total` bytes (`prefix`, then `a`s) that counts how much of it the server
 * pulled: how the body-limit tests see whether a body was read past its cap.
 */
export function countedBody(total: number, prefix = "") {
  const chunk = new Uint8Array(64 * 1024).fill(0x61);
  let produced = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (produced === 0 && prefix) {
        const head = new TextEncoder().encode(prefix);
        controller.enqueue(head);
        produced += head.byteLength;
        return;
      }
      if (produced >= total) return controller.close();
      const n = Math.min(chunk.byteLength, total - produced);
      controller.enqueue(chunk.subarray(0, n));
      produced += n;
    },
  });
  return { stream, pulled: () => produced };
}
