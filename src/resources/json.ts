/** The bytes of a JSON resource: indented for people reading it with curl, with a final newline. */
export const jsonBody = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

export const jsonResponse = (value: unknown) =>
  new Response(jsonBody(value), { headers: { "Content-Type": "application/json; charset=utf-8" } });
