import type { ConditionName } from "./conditions.ts";
import { duplicateMember } from "./duplicate-members.ts";
import { nestsTooDeep, tooDeepDetail } from "./nesting.ts";
import { readCapped } from "./read-capped.ts";
import { Refusal } from "./refusal.ts";

/**
 * What a body's problems are refused as, where a protocol names them otherwise than the defaults
 * (unsupported_media_type, payload_too_large, invalid_json): /api answers another media type as invalid_json (the
 * spec's rule), OAuth registration everything as its metadata's error (RFC 7591 §3.2.2).
 */
export interface BodyRefusals {
  wrongType: ConditionName;
  tooLarge: ConditionName;
  malformed: ConditionName;
}

export interface BodyOptions {
  /** The most bytes read; a longer body is refused without reading the rest. */
  limit: number;
  refuseAs?: Partial<BodyRefusals>;
}

export interface JsonBodyOptions extends BodyOptions {
  /** The JSON media types the endpoint names (A2A adds application/a2a+json); application/json alone by default. */
  types?: readonly string[];
  /** Whether a request without Content-Type is read as JSON. */
  untypedIsJson?: boolean;
  /** Whether an empty body is allowed (read as undefined): A2A REST's cancel is a POST without one. */
  optional?: boolean;
}

const defaults: BodyRefusals = { wrongType: "unsupported_media_type", tooLarge: "payload_too_large", malformed: "invalid_json" };
const formType = "application/x-www-form-urlencoded";
/** A Content-Type's media type, lower-cased (RFC 9110 §8.3.1: type and subtype are case-insensitive); "" for none. */
export const mediaTypeOf = (contentType: string | null | undefined) => contentType?.split(";")[0]?.trim().toLowerCase() ?? "";
const mediaType = (request: Request) => mediaTypeOf(request.headers.get("content-type"));

/** Strict: a byte sequence that is not UTF-8 is refused, never read with replacement characters. */
const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as text, at most `limit` bytes of strict UTF-8, once its media type passed `accepts`; or a Refusal. */
async function readText(request: Request, expected: string, accepts: (type: string) => boolean, options: BodyOptions) {
  const refuseAs = { ...defaults, ...options.refuseAs };
  const type = mediaType(request);
  if (!accepts(type)) throw new Refusal(refuseAs.wrongType, { detail: `Content-Type must be ${expected}, not "${type || "missing"}".` });
  const bytes = await readCapped(request, options.limit);
  if (bytes === undefined) throw new Refusal(refuseAs.tooLarge, { detail: `The body is larger than ${options.limit} bytes.` });
  try {
    return utf8.decode(bytes);
  } catch {
    throw new Refusal(refuseAs.malformed, { detail: "The body is not valid UTF-8 (RFC 8259 §8.1)." });
  }
}

/** The request body parsed as JSON, or a Refusal: another media type, too large, not UTF-8, or not JSON. */
export async function readJson(request: Request, options: JsonBodyOptions): Promise<unknown> {
  const { types = ["application/json"], untypedIsJson = false, optional = false } = options;
  const text = await readText(request, types.join(" or "), (type) => types.includes(type) || (type === "" && untypedIsJson), options);
  if (optional && text === "") return undefined;
  const malformed = options.refuseAs?.malformed ?? defaults.malformed;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // The parser's own message quotes the body back and varies by engine: the client gets ours.
    throw new Refusal(malformed, { detail: "The body is not valid JSON (RFC 8259)." });
  }
  const twice = duplicateMember(text);
  if (twice !== undefined)
    throw new Refusal(malformed, {
      detail: `The member ${JSON.stringify(twice.slice(0, 64))} is given twice in one object; each name must be unique (RFC 7493 §2.3).`,
    });
  return body;
}

/** The request body as an application/x-www-form-urlencoded form, or a Refusal: another media type, too large, not UTF-8. */
export async function readForm(request: Request, options: BodyOptions): Promise<URLSearchParams> {
  return new URLSearchParams(await readText(request, formType, (type) => type === formType, options));
}

/**
 * A parsed JSON body that must be an object (a brief, a registration) nested no deeper than the gates allow, else a
 * Refusal as `refuseAs` (invalid_json by default; nesting is nested_too_deep unless the protocol names it otherwise).
 */
export function jsonObject(body: unknown, refuseAs?: ConditionName): Record<string, unknown> {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    const what = body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`;
    throw new Refusal(refuseAs ?? "invalid_json", { detail: `The body must be a JSON object, not ${what}.` });
  }
  if (nestsTooDeep(body)) throw new Refusal(refuseAs ?? "nested_too_deep", { detail: tooDeepDetail });
  return body as Record<string, unknown>;
}
