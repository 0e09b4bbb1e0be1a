import { jsonObject, readForm as readFormBody, readJson, type BodyRefusals } from "../http/body.ts";
import { Refusal } from "../http/refusal.ts";

/** A form's problems are invalid_request (RFC 6749 §5.2); a registration's are its metadata's (RFC 7591 §3.2.2). */
const formRefusals: BodyRefusals = {
  wrongType: "invalid_oauth_request",
  tooLarge: "payload_too_large",
  malformed: "invalid_oauth_request",
};
const metadataRefusals: BodyRefusals = {
  wrongType: "invalid_client_metadata",
  tooLarge: "client_metadata_too_large",
  malformed: "invalid_client_metadata",
};

/** A registration's JSON object body (RFC 7591 §3.1). */
export const readJsonObject = async (request: Request, limit: number) =>
  jsonObject(await readJson(request, { limit, refuseAs: metadataRefusals }), metadataRefusals.malformed);

/**
 * An application/x-www-form-urlencoded body as single values. RFC 6749 §3.2: a parameter sent more than once is
 * refused; `repeatable` names the ones that may repeat (RFC 8707 `resource`), returned as arrays.
 */
export async function readForm(request: Request, limit: number, repeatable: string[] = []) {
  return singleValues(await readFormBody(request, { limit, refuseAs: formRefusals }), repeatable);
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
