/** An OAuth endpoint's JSON answer, never cached (RFC 6749 §5.1). Refusals are the door's format (oauthJson). */
export const jsonResponse = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "Cache-Control": "no-store", Pragma: "no-cache" },
  });
