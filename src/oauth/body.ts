import type { ConditionName } from "../http/conditions.ts";
import { nestsTooDeep, tooDeepDetail } from "../http/nesting.ts";
import { readCapped } from "../http/read-capped.ts";
import { Refusal } from "../http/refusal.ts";

/** What a body's problems are refused as: a form's are invalid_request, a registration's its metadata's (RFC 7591 §3.2.2). */
interface BodyRefusals {
  invalid: ConditionName;
  tooLarge: ConditionName;
}
const formRefusals: BodyRefusals = { invalid: "invalid_oauth_request", tooLarge: "payload_too_large" };
const metadataRefusals: BodyRefusals = { invalid: "invalid_client_metadata", tooLarge: "client_metadata_too_large" };

/** Reads at most `limit` bytes of the body; a longer body is refused before it is all read. */
async function readBody(request: Request, limit: number, { invalid, tooLarge }: BodyRefusals): Promise<string> {
  const bytes = await readCapped(request, limit);
  if (!bytes) throw new Refusal(tooLarge, { detail: `The request body is larger than ${limit} bytes.` });
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Refusal(invalid, { detail: "The request body is not valid UTF-8." });
  }
}

const mediaType = (request: Request) => (request.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();

/** A registration's JSON object body (RFC 7591 §3.1). */
export async function readJsonObject(request: Request, limit: number) {
  const refuse = (detail: string) => new Refusal(metadataRefusals.invalid, { detail });
  if (mediaType(request) !== "application/json") throw refuse("Send the body as Content-Type: application/json.");
  const text = await readBody(request, limit, metadataRefusals);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw refuse("The request body is not valid JSON.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw refuse("The request body must be a JSON object.");
  if (nestsTooDeep(value)) throw refuse(tooDeepDetail);
  return value as Record<string, unknown>;
}

/**
 * An application/x-www-form-urlencoded body as single values. RFC 6749 §3.2: a parameter sent more than once is
 * refused; `repeatable` names the ones that may repeat (RFC 8707 `resource`), returned as arrays.
 */
export async function readForm(request: Request, limit: number, repeatable: string[] = []) {
  if (mediaType(request) !== "application/x-www-form-urlencoded") {
    throw new Refusal("invalid_oauth_request", { detail: "Send the body as Content-Type: application/x-www-form-urlencoded." });
  }
  const params = new URLSearchParams(await readBody(request, limit, formRefusals));
  return singleValues(params, repeatable);
}

/** Query or form parameters: a parameter given twice is an invalid_request (RFC 6749 §3.1, §3.2). */
export function singleValues(params: URLSearchParams, repeatable: string[] = []) {
  const values: Record<string, string> = {};
  const repeated: Record<string, string[]> = {};
  const seen = new Set<string>();
  for (const [name, value] of params) {
    if (repeatable.includes(name)) (repeated[name] ??= []).push(value);
    else if (seen.has(name)) throw new Refusal("invalid_oauth_request", { detail: `The parameter ${name} is given more than once.` });
    else if (value !== "") values[name] = value;
    seen.add(name);
  }
  return { values, repeated };
}
