/** What differs between two answers to the same request whatever the method: the time, the quota left, the framing. */
const perAnswer = new Set([
  "date",
  "x-nf-request-id",
  "x-nf-start-timestamp",
  "x-nf-fetch-timing",
  "ratelimit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "set-cookie",
  "content-length",
  "transfer-encoding",
  "connection",
  "keep-alive",
]);
const comparable = (headers: Headers): Record<string, string> => Object.fromEntries([...headers].filter(([name]) => !perAnswer.has(name)));

/** How HEAD's answer at `url` differs from GET's (status, headers, a body); undefined where it is GET's without the body. */
export async function headUnlikeGet(http: typeof fetch, url: string, headers: Record<string, string> = {}) {
  // Uncompressed, so that both answers are the same representation (netlify dev compresses a GET's, not a HEAD's).
  const sent = { ...headers, "accept-encoding": "identity" };
  const get = await http(url, { headers: sent });
  // Not awaited: the cancel of a body a handler cloned (a branch of a tee) settles only once its other branch is cancelled too.
  void get.body?.cancel();
  const head = await http(url, { method: "HEAD", headers: sent });
  const [got, headed, body] = [comparable(get.headers), comparable(head.headers), await head.text()];
  const headerDiff = [...new Set([...Object.keys(got), ...Object.keys(headed)])].filter((name) => got[name] !== headed[name]);
  if (get.status === head.status && headerDiff.length === 0 && body === "") return undefined;
  return { url, status: [get.status, head.status], headers: headerDiff.map((name) => [name, got[name], headed[name]]), body };
}

/** The status and Allow of a DELETE at `url`, for a route that takes GET: a 405 whose Allow names GET and HEAD. */
export async function deleteRefused(http: typeof fetch, url: string, headers: Record<string, string> = {}) {
  const refused = await http(url, { method: "DELETE", headers });
  await refused.body?.cancel();
  return { url, status: refused.status, allow: refused.headers.get("allow")?.split(", ") };
}
