// Base64url (RFC 4648 §5, unpadded) by hand, not jose's or Buffer's: the edge and every door's reads use it without
// loading jose (tests/build checks what a read loads), and Buffer is Node's only.
export const toBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

/** The bytes of unpadded base64url text; a SyntaxError for any other character (atob refuses a length no encoder writes). */
export const fromBase64url = (text: string) => {
  if (!/^[\w-]*$/.test(text)) throw new SyntaxError("not base64url");
  return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
};
