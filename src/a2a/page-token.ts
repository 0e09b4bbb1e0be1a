import { RequestMalformedError } from "@a2a-js/sdk/errors";
import { fromBase64url, toBase64url } from "../base64url.ts";
import type { Cursor } from "./task-index.ts";
import { lazy } from "../lazy.ts";

/**
 * ListTasks' `pageToken`: the agent's own, never a position a client can spell. A token is the cursor (the last task a
 * page showed, `[status time in ms, task id]`, base64url JSON), a dot, and an HMAC-SHA256 (base64url) of the grant that
 * listed and that cursor, under secrets derived from OAUTH_SIGNING_KEYS (src/tokens/derived-keys.ts, label
 * `frontdoor/a2a/pageToken/v1`). The first secret signs; every secret verifies, so a token outlives a key switch and
 * is refused once its key is retired. A token that fails to verify, or verifies for another grant, is InvalidParams.
 */
export const pageTokenLabel = "frontdoor/a2a/pageToken/v1";

/** Longer than any token issued (a 200-character id, its cursor and the MAC): refused before any work. */
const maxTokenLength = 1024;

export interface PageTokens {
  /** The token that resumes a listing of `owner`'s tasks after `cursor`. */
  issue(cursor: Cursor, owner: string): Promise<string>;
  /** The cursor of a token issued to `owner`; throws RequestMalformedError for any other token. */
  read(token: string, owner: string): Promise<Cursor>;
}

const notIssued = () =>
  new RequestMalformedError({
    message: "pageToken is not a nextPageToken this agent issued to your grant; list again without one to start from the newest task.",
  });

/** What the MAC covers: the grant and the cursor's text, unambiguously joined. */
const signed = (owner: string, cursor: string) => new TextEncoder().encode(JSON.stringify([owner, cursor]));

function cursorOf(text: string): Cursor | undefined {
  let decoded: unknown;
  try {
    decoded = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(fromBase64url(text)));
  } catch {
    return undefined;
  }
  if (
    Array.isArray(decoded) &&
    decoded.length === 2 &&
    Number.isSafeInteger(decoded[0]) &&
    typeof decoded[1] === "string" &&
    decoded[1].length > 0 &&
    decoded[1].length <= 200
  )
    return { score: decoded[0], id: decoded[1] };
  return undefined;
}

/** Page tokens under the secrets `secrets` gives (imported as HMAC keys on first use, again after a failure). */
export function pageTokens(secrets: () => Promise<Uint8Array[]>): PageTokens {
  const imported = lazy(() =>
    secrets().then((all) =>
      Promise.all(
        all.map((secret) =>
          crypto.subtle.importKey("raw", secret as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]),
        ),
      ),
    ),
  );

  return {
    async issue({ score, id }, owner) {
      const cursor = toBase64url(new TextEncoder().encode(JSON.stringify([score, id])));
      const mac = await crypto.subtle.sign("HMAC", (await imported())[0]!, signed(owner, cursor));
      return `${cursor}.${toBase64url(new Uint8Array(mac))}`;
    },
    async read(token, owner) {
      const parts = token.length <= maxTokenLength ? token.split(".") : [];
      if (parts.length !== 2) throw notIssued();
      const [cursor, mac] = parts as [string, string];
      let macBytes: Uint8Array<ArrayBuffer>;
      try {
        macBytes = fromBase64url(mac);
      } catch {
        throw notIssued();
      }
      const data = signed(owner, cursor);
      const verified = await Promise.all((await imported()).map((key) => crypto.subtle.verify("HMAC", key, macBytes, data)));
      const found = verified.includes(true) ? cursorOf(cursor) : undefined;
      if (!found) throw notIssued();
      return found;
    },
  };
}
