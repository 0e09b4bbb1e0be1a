import { toBase64url } from "../base64url.ts";

/** A strong validator: the SHA-256 of the exact bytes served, base64url. */
export async function strongEtag(body: ArrayBuffer): Promise<string> {
  return `"${toBase64url(new Uint8Array(await crypto.subtle.digest("SHA-256", body)))}"`;
}

/** RFC 9110 §13.1.2: If-None-Match matches `*` or any listed tag, comparing weakly. */
export function matchesIfNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === "*") return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, "");
  return header.split(",").some((tag) => opaque(tag) === opaque(etag));
}
