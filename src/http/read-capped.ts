/**
 * The request body, or undefined when it is longer than `limit` bytes: refused by its Content-Length when it
 * declares one, else as soon as the stream passes the limit, without reading the rest.
 */
export async function readCapped(request: Request, limit: number): Promise<Uint8Array | undefined> {
  if (Number(request.headers.get("content-length") ?? "0") > limit) return undefined;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
