/** The status of a GET, with the body read to the end (an unread body can trip undici when the socket closes). */
export async function statusOf(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}
