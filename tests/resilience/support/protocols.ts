import { expect } from "vitest";
import { problemContentType } from "../../../src/http/formats.ts";
import { toWire } from "./fuzz.ts";

/**
 * What every answer of each protocol must look like, whatever was asked: never a 5xx, and every error in the protocol's
 * own format. Each check reads the whole body.
 */

/** REST under /api: errors are RFC 9457 problems with this API's members. */
export async function checkProblem(res: Response, { head = false } = {}): Promise<number> {
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  if (res.status < 400) return res.status;
  expect(res.headers.get("content-type")).toBe(problemContentType);
  // A HEAD answer has the headers of the problem and no body (RFC 9110 §9.3.2).
  if (head) return (expect(text).toBe(""), res.status);
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(body).toMatchObject({
    type: expect.stringMatching(/^https:\/\/studio\.example\/developers#error-/),
    title: expect.any(String),
    status: res.status,
    detail: expect.any(String),
    instance: expect.stringMatching(/^\//),
    code: expect.stringMatching(/^[a-z_]+$/),
  });
  if (res.status === 429 || res.status === 503) expect(res.headers.get("retry-after")).toMatch(/^\d+$/);
  return res.status;
}

/** The contact form answers a person: always a page. */
export async function checkPage(res: Response): Promise<number> {
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  expect(res.headers.get("content-type")).toMatch(/^text\/html/);
  expect(text).toMatch(/<h1[ >]/);
  return res.status;
}

const oauthErrors = new Set([
  "invalid_request",
  "invalid_client",
  "invalid_grant",
  "unauthorized_client",
  "unsupported_grant_type",
  "invalid_scope",
  "invalid_target",
  "invalid_redirect_uri",
  "invalid_client_metadata",
  "access_denied",
  "unsupported_response_type",
  "temporarily_unavailable",
  "rate_limited",
]);

/**
 * OAuth: JSON errors with an RFC 6749 / 7591 / 8707 code; at /oauth/authorize, a page for the person when the client or
 * its redirect URI cannot be trusted, else a redirect carrying `error` (or `code`) and `iss` (RFC 9207).
 */
export async function checkOAuth(res: Response, { head = false } = {}): Promise<number> {
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  const type = res.headers.get("content-type") ?? "";
  if (res.status >= 300 && res.status < 400) {
    const location = new URL(res.headers.get("location")!);
    expect(location.searchParams.get("iss")).toBe("https://studio.example");
    expect(location.searchParams.has("error") || location.searchParams.has("code")).toBe(true);
    if (location.searchParams.has("error")) expect(oauthErrors).toContain(location.searchParams.get("error"));
    return res.status;
  }
  if (res.status < 400) return res.status;
  if (type.startsWith("text/html")) {
    // A HEAD answer has the page's headers and no body (RFC 9110 §9.3.2).
    expect(text).toMatch(head ? /^$/ : /<h1[ >]/);
    return res.status;
  }
  expect(type).toMatch(/^application\/json/);
  const body = JSON.parse(text) as { error: string; error_description: unknown };
  expect(oauthErrors).toContain(body.error);
  expect(typeof body.error_description).toBe("string");
  return res.status;
}

/**
 * What an engine says when it fails (a TypeError, a stack overflow, a stack frame, a zod issue list) or makes of a value
 * of the wrong type (an object as a string), never an answer.
 */
export const engineText =
  /is not a function|Maximum call stack|Cannot read propert|Cannot convert|\n\s+at |"code": "invalid_type"|node_modules|\[object Object\]/;

const validId = (id: unknown) => typeof id === "string" || (typeof id === "number" && Number.isInteger(id));

/** The messages of a JSON-RPC answer, in JSON or as a server-sent event stream. */
function messagesOf(res: Response, text: string): unknown[] {
  const type = res.headers.get("content-type") ?? "";
  if (type.startsWith("text/event-stream")) {
    return text
      .split("\n")
      .filter((line) => line.startsWith("data:"))
      .map((line) => JSON.parse(line.slice(5)) as unknown);
  }
  expect(type).toMatch(/^application\/json/);
  const parsed = JSON.parse(text) as unknown;
  return Array.isArray(parsed) ? parsed : [parsed];
}

/**
 * JSON-RPC 2.0 (MCP, A2A): every message has a result or an error with an integer code and a message, and an answer to
 * one request with a valid id carries that id (null only when the request could not be read at all).
 */
export async function checkJsonRpc(res: Response, sent: unknown): Promise<"result" | "error" | "none"> {
  const text = await res.text();
  expect(res.status).toBeLessThan(500);
  if (res.status === 202 || res.status === 204 || res.status === 304 || text === "") return "none";
  const messages = messagesOf(res, text);
  for (const message of messages as Record<string, unknown>[]) {
    expect(message.jsonrpc).toBe("2.0");
    expect("result" in message).not.toBe("error" in message);
    if ("error" in message) {
      const error = message.error as { code: unknown; message: unknown };
      expect(Number.isInteger(error.code)).toBe(true);
      expect(typeof error.message).toBe("string");
      // Bad input is the client's to fix, named in words: never an internal error, never an engine's own text.
      expect(error.code, String(error.message)).not.toBe(-32603);
      expect(error.message).not.toMatch(engineText);
    }
  }
  // The request as it went on the wire (JSON has no -0, no undefined members).
  const request = (sent === undefined ? undefined : JSON.parse(toWire(sent))) as Record<string, unknown> | undefined;
  if (request && !Array.isArray(request) && typeof request === "object" && validId(request.id) && messages.length === 1) {
    const id = (messages[0] as { id: unknown }).id;
    // A well-formed request that was read gets its id back; null only when the body was refused unread (a wrong
    // method, Origin or size, the quota) or was not a valid JSON-RPC request (JSON-RPC 2.0 §5).
    const params = request.params;
    const wellFormed =
      request.jsonrpc === "2.0" &&
      typeof request.method === "string" &&
      (params === undefined || (typeof params === "object" && params !== null));
    const unread = [403, 405, 406, 413, 415, 429].includes(res.status);
    if (wellFormed && !unread) expect(id).toEqual(request.id);
    else if (id !== null) expect(id).toEqual(request.id);
  }
  return messages.some((m) => "result" in (m as object)) ? "result" : "error";
}

/**
 * What no accepted brief holds, whatever was sent, written apart from the validator: no tag character but in the three
 * subdivision flags, no filler, interlinear annotation, grapheme joiner, zero-width space, bidirectional control,
 * variation selector other than VS15/VS16, no character drawn as nothing (the braille blank, the null notehead, the
 * Egyptian mirroring control, the Khitan filler), no private-use, noncharacter or unassigned code point, no lone
 * surrogate; and no joiner or selector out of place (first, after a space, twice, a joiner last or before a space but
 * after a virama, a joiner after a Latin, Greek, Cyrillic or Han letter or a digit, a ZWNJ after a Persian letter that
 * joins nothing after it).
 */
export function checkVisibleBrief(brief: Record<string, unknown>) {
  const flags =
    /\u{1F3F4}\u{E0067}\u{E0062}(?:\u{E0065}\u{E006E}\u{E0067}|\u{E0073}\u{E0063}\u{E0074}|\u{E0077}\u{E006C}\u{E0073})\u{E007F}/gu;
  const neverSeen =
    /[\u{E0000}-\u{E0FFF}\u115F\u1160\u3164\uFFA0\uFFF0-\uFFFB\u034F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u206F\uFEFF\uFE00-\uFE0D\u2800\u{1D159}\u{13440}\u{16FE4}\p{Co}\p{Cn}]/u;
  const outOfPlace =
    /(?:^|\s)[\u200C\u200D\uFE0E\uFE0F]|[\u200C\u200D][\u200C\u200D\uFE0E\uFE0F]|[\uFE0E\uFE0F][\uFE0E\uFE0F]|(?<!\p{M})[\u200C\u200D](?:$|\s)/u;
  const joinerAfterALetterThatNeedsNone =
    /[\p{sc=Latin}\p{sc=Greek}\p{sc=Cyrillic}\p{sc=Han}\p{Nd}][\u200C\u200D]|[\u0622-\u0625\u0627\u062F-\u0632\u0648\u0698]\u200C/u;
  for (const [field, value] of Object.entries(brief)) {
    if (typeof value !== "string") continue;
    expect(value.isWellFormed(), field).toBe(true);
    const seen = value.replace(flags, "\u{1F3F4}");
    expect(seen, field).not.toMatch(neverSeen);
    expect(seen, field).not.toMatch(outOfPlace);
    expect(seen, field).not.toMatch(joinerAfterALetterThatNeedsNone);
  }
}

/**
 * A lead e-mail as Postmark received it: in the text part, every line that does not start with ">" is one of the
 * studio's own, in their fixed order, the lead id the metadata names; in the HTML part, everything outside the one
 * blockquote is the studio's too.
 */
export function checkLeadMail(message: Record<string, unknown>) {
  const id = (message.Metadata as { lead_id: string }).lead_id;
  expect(id).toMatch(/^lead_[0-9a-z]{20}$/);
  const own = [
    /^New project brief for .+$/,
    new RegExp(`^Lead id: ${id}$`),
    /^Received \S+ through (?:rest|mcp|a2a|form) \(client \S+\)\.$/,
    /^Possibly the same person as lead_[0-9a-z]{20} \(same work e-mail and company, possibly filed by someone else\)\.$/,
    /^Reply to this e-mail to answer the person at [^\s<>"]+@[^\s<>"]+\.$/,
  ];
  const text = String(message.TextBody).split("\n");
  const lines = text.filter((line) => !line.startsWith(">"));
  const related = lines.some((line) => own[3]!.test(line));
  const header = related ? own : own.filter((_, i) => i !== 3);
  const expected = [
    ...header,
    /^Below, every line that starts with ">" is the brief as the person filed it: their words, not the studio's\.$/,
    /^$/,
    new RegExp(`^----- What the person filed \\(${id}\\) -----$`),
    new RegExp(`^----- End of what the person filed \\(${id}\\) -----$`),
  ];
  expect(lines).toHaveLength(expected.length);
  lines.forEach((line, i) => expect(line).toMatch(expected[i]!));

  const quoted = /<blockquote[^>]*>[\s\S]*?<\/blockquote>/g;
  const html = String(message.HtmlBody);
  expect(html.match(quoted)).toHaveLength(1);
  const outside = html
    .replace(quoted, "")
    .split(/<[^>]*>/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) =>
      s
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&amp;/g, "&"),
    );
  const outsideExpected = [
    ...header,
    /^Below, in the framed block, is the brief as the person filed it: their words, not the studio's\.$/,
    new RegExp(`^What the person filed \\(${id}\\)$`),
    new RegExp(`^End of what the person filed \\(${id}\\)$`),
  ];
  expect(outside).toHaveLength(outsideExpected.length);
  outside.forEach((s, i) => expect(s).toMatch(outsideExpected[i]!));
}
