import type { ToolDefinition } from "./tool.ts";

/**
 * SEP-2243 (MCP 2026-07-28): a tool may mirror an argument into an `Mcp-Param-{Name}` header (`x-mcp-header` on a
 * property of its input schema), so that a gateway sees it without parsing the body. A client sends the value as it is,
 * or as `=?base64?{canonical Base64 of its UTF-8}?=`; the server must refuse a call whose header is missing, malformed or
 * says something else than the body (400, -32020). The v2 SDK checks this only for the tools it registers itself, and ours
 * are served from our own table (server.ts), so it is checked here. Only top-level properties carry the extension in our
 * tools.
 */
export interface MirroredArgument {
  argument: string;
  /** The header's name, lower-cased as Fetch gives it. */
  header: string;
}

export function mirroredArguments(tool: ToolDefinition): MirroredArgument[] {
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(properties).flatMap(([argument, schema]) => {
    const name = schema["x-mcp-header"];
    return typeof name === "string" ? [{ argument, header: `mcp-param-${name.toLowerCase()}` }] : [];
  });
}

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The value a header carries: the Base64 form decoded (canonical Base64 of UTF-8 only), else the header as it is. */
function headerValue(value: string): string | undefined {
  const encoded = /^=\?base64\?(.*)\?=$/i.exec(value)?.[1];
  if (encoded === undefined) return value;
  if (!base64.test(encoded)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0)));
  } catch {
    return undefined;
  }
}

/** What is wrong with a tools/call's mirrored arguments, in words, or nothing. */
export function paramHeaderMismatch(mirrored: MirroredArgument[], args: unknown, headers: Headers): string | undefined {
  const body = typeof args === "object" && args !== null ? (args as Record<string, unknown>) : {};
  for (const { argument, header } of mirrored) {
    const sent = headers.get(header);
    const value = body[argument];
    const expected = ["string", "number", "boolean"].includes(typeof value) ? String(value) : undefined;
    if (sent === null) {
      if (value !== undefined) return `The ${argument} argument is mirrored in the ${header} header (x-mcp-header), which is missing.`;
      continue;
    }
    const decoded = headerValue(sent);
    if (decoded === undefined) return `The ${header} header's Base64 value is not valid (RFC 4648 §4, with its padding, of UTF-8).`;
    if (decoded !== expected) return `The ${header} header does not match the ${argument} argument in the body.`;
  }
  return undefined;
}
