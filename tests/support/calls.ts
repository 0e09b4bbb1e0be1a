import { expect } from "vitest";
import { problemContentType } from "../../src/http/formats.ts";
import { patience } from "./patience.ts";

/** A request init with a JSON body. */
export const json = (body: unknown, headers: Record<string, string> = {}, method = "POST"): RequestInit => ({
  method,
  headers: { "content-type": "application/json", ...headers },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

export const form = (fields: Record<string, string>, headers: Record<string, string> = {}): RequestInit => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
  body: new URLSearchParams(fields).toString(),
});

export const mcpHeaders = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
export const mcpCall = (method: string, params: unknown = {}, id: number | string = 1, headers: Record<string, string> = {}) =>
  json({ jsonrpc: "2.0", id, method, params }, { ...mcpHeaders, ...headers });

export const a2aSend = (parts: unknown[], headers: Record<string, string> = {}, metadata?: Record<string, unknown>) =>
  json(
    {
      jsonrpc: "2.0",
      id: 7,
      method: "SendMessage",
      params: { message: { messageId: crypto.randomUUID(), role: "ROLE_USER", parts, ...(metadata ? { metadata } : {}) } },
    },
    { "a2a-version": "1.0", ...headers },
  );

/** A liveness bound, not a performance figure: a handler that has not answered within the shared patience is hanging. */
export async function answered(response: Promise<Response>, limitMs = patience): Promise<Response> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms: the handler hangs`)), limitMs);
  });
  try {
    return await Promise.race([response, hung]);
  } finally {
    clearTimeout(timer);
  }
}

/** An RFC 9457 problem with the given status and code, and its body. */
export async function expectProblem(response: Response, status: number, code?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toBe(problemContentType);
  const body = (await response.json()) as Record<string, unknown>;
  expect(body).toMatchObject({ status, type: expect.stringMatching(/^https:\/\//), title: expect.any(String), detail: expect.any(String) });
  if (code) expect(body.code).toBe(code);
  return body;
}

/** A JSON-RPC 2.0 error object with an integer code, answering the request's id (or null when it had none). */
export async function expectRpcError(response: Response, id: unknown = null) {
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const body = (await response.json()) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
  expect(body.jsonrpc).toBe("2.0");
  expect(body.id).toEqual(id);
  expect(Number.isInteger(body.error.code)).toBe(true);
  expect(typeof body.error.message).toBe("string");
  return body;
}

/** An RFC 6749 error: `{ error, error_description }` JSON. */
export async function expectOAuthError(response: Response, status: number, error: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(await response.json()).toMatchObject({ error, error_description: expect.any(String) });
}

/** A Retry-After in whole seconds. */
export const expectRetryAfter = (response: Response) => expect(response.headers.get("retry-after")).toMatch(/^[1-9]\d*$/);
