import { STATUS_CODES } from "node:http";
import { a2aErrors, a2aRestErrors } from "../../src/a2a/errors.ts";
import { door } from "../../src/http/door.ts";
import { oauthJson, problemJson, type Format } from "../../src/http/formats.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { mcpErrors } from "../../src/mcp/errors.ts";
import { a2aPath, a2aRestPath, mcpPath, oauthBase } from "../../src/paths.ts";

/**
 * What npm start's front answers itself, for requests netlify dev cannot take (front.ts): each door's refusal rendered
 * by the door's own format (src/http/formats.ts) from the conditions table, on the paths the door owns; on the site's
 * paths, the status in plain words.
 */
interface Door {
  /** The door owns this path and every path below it. */
  under: string;
  format: (origin: string) => Format;
}

/** Most specific first. */
const doors: Door[] = [
  { under: "/api", format: problemJson },
  { under: oauthBase, format: () => oauthJson },
  { under: a2aRestPath, format: () => a2aRestErrors },
  { under: a2aPath, format: () => a2aErrors },
  { under: mcpPath, format: mcpErrors },
];

const doorAt = (path: string) => doors.find(({ under }) => path === under || path.startsWith(`${under}/`));

async function rendered(format: Format, url: URL, refusal: Refusal): Promise<Response> {
  const app = door(format);
  app.all("*", () => {
    throw refusal;
  });
  return app.fetch(new Request(url));
}

const inPlainWords = (status: number) =>
  new Response(STATUS_CODES[status], { status, headers: { "Content-Type": "text/plain; charset=utf-8" } });

/** A body over `limit` bytes refused at `url`. */
export function payloadTooLarge(url: URL, limit: number): Promise<Response> {
  const owner = doorAt(url.pathname);
  if (!owner) return Promise.resolve(inPlainWords(413));
  const detail = `The body is larger than ${limit} bytes, the most the platform hands a function.`;
  return rendered(owner.format(url.origin), url, new Refusal("payload_too_large", { detail }));
}
