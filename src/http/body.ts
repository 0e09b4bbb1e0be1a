import { readCapped } from "./read-capped.ts";
import { Refusal } from "./refusal.ts";
import type { ConditionName } from "./conditions.ts";

export interface JsonBodyOptions {
  /** The most bytes read; a longer body is refused as payload_too_large without reading the rest. */
  limit: number;
  /** What a body of another media type is: invalid_json under /api (the spec's rule), unsupported_media_type elsewhere. */
  wrongType: Extract<ConditionName, "invalid_json" | "unsupported_media_type">;
  /** Whether a request without Content-Type is read as JSON. */
  untypedIsJson?: boolean;
  /** Whether an empty body is allowed (read as undefined): A2A REST's cancel is a POST without one. */
  optional?: boolean;
}

const isJsonType = (type: string) => type === "application/json" || type.endsWith("+json");

/** The request body parsed as JSON, or a Refusal: too large, another media type, not UTF-8, or not JSON. */
export async function readJson(
  request: Request,
  { limit, wrongType, untypedIsJson = false, optional = false }: JsonBodyOptions,
): Promise<unknown> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
  if (!(isJsonType(type) || (type === "" && untypedIsJson)))
    throw new Refusal(wrongType, { detail: `Content-Type must be application/json, not "${type || "missing"}".` });
  const bytes = await readCapped(request, limit);
  if (bytes === undefined) throw new Refusal("payload_too_large", { detail: `The body is larger than ${limit} bytes.` });
  if (optional && bytes.byteLength === 0) return undefined;
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new Refusal("invalid_json", { detail: "The body is not valid UTF-8 (RFC 8259 §8.1)." });
  }
  try {
    return JSON.parse(text);
  } catch {
    // The parser's own message quotes the body back and varies by engine: the client gets ours.
    throw new Refusal("invalid_json", { detail: "The body is not valid JSON (RFC 8259)." });
  }
}

/** Strict: a byte sequence that is not UTF-8 is refused, never read with replacement characters. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** A parsed body that must be a JSON object (the brief, a registration). */
export function jsonObject(body: unknown): Record<string, unknown> {
  if (body !== null && typeof body === "object" && !Array.isArray(body)) return body as Record<string, unknown>;
  const what = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
  throw new Refusal("invalid_json", { detail: `The body must be a JSON object, not ${what}.` });
}
