import { STATUS_CODES } from "node:http";
import { a2aErrors, a2aRestErrors } from "../../src/a2a/errors.ts";
import { matchRoute } from "../../src/api/routes.ts";
import { door } from "../../src/http/door.ts";
import { oauthJson, problemJson, type Format } from "../../src/http/formats.ts";
import { methodNotAllowed } from "../../src/http/methods.ts";
import { Refusal } from "../../src/http/refusal.ts";
import { mcpErrors } from "../../src/mcp/errors.ts";
import { restMethods } from "../../src/a2a/rest-routes.ts";
import { a2aPath, a2aRestPath, mcpPath, oauthBase, pagePaths, routeMethods } from "../../src/paths.ts";

/**
 * What npm start's front answers itself, for requests netlify dev cannot take (front.ts): each door's refusal rendered
 * by the door's own format (src/http/formats.ts) from the conditions table, on the paths the door owns; on the site's
 * paths, the status in plain words, as netlify dev's static server answers a method it does not take.
 */
interface Door {
  /** The door owns this path and every path below it. */
  under: string;
  format: (origin: string) => Format;
  /** The door's Allow at a path; undefined where it serves nothing (it answers not_found, whatever the method). */
  allow: (path: string) => readonly string[] | undefined;
}

/** The methods of the door's route at exactly this path, as the door registers it. */
const routedAt = new Map<string, readonly string[]>(Object.entries(routeMethods));
const routed = (path: string) => routedAt.get(path);

/** The methods A2A's HTTP+JSON binding takes at a path, as its door names them; none: not_found. */
const restAllow = (path: string) => {
  const methods = restMethods(path);
  return methods.length === 0 ? undefined : [...methods, "OPTIONS"];
};

/** Most specific first. tests/doors/edges.test.ts holds each Allow to the one its door answers. */
const doors: Door[] = [
  { under: "/api", format: problemJson, allow: (path) => matchRoute(path)?.methods },
  // At /oauth/authorize the door answers refusals with a page, for browsers; no browser sends what the front refuses.
  { under: oauthBase, format: () => oauthJson, allow: routed },
  { under: a2aRestPath, format: () => a2aRestErrors, allow: restAllow },
  { under: a2aPath, format: () => a2aErrors, allow: routed },
  { under: mcpPath, format: mcpErrors, allow: routed },
];

// netlify dev matches a function's path in any case (/API/v1/briefs reaches the briefs function, which answers not_found).
const doorAt = (path: string) => {
  const lower = path.toLowerCase();
  return doors.find(({ under }) => lower === under || lower.startsWith(`${under}/`));
};

/** Whether a door (a function or an edge function) owns the path. */
export const ownedByDoor = (path: string) => doorAt(path) !== undefined;

async function rendered(format: Format, url: URL, refusal: Refusal): Promise<Response> {
  const app = door(format);
  app.all("*", () => {
    throw refusal;
  });
  return app.fetch(new Request(url));
}

const inPlainWords = (status: number, headers: Record<string, string> = {}) =>
  new Response(STATUS_CODES[status], { status, headers: { ...headers, "Content-Type": "text/plain; charset=utf-8" } });

/** What a path of the site (no door's) takes: its files GET and HEAD, and /contact the form's POST (functions/contact.ts). */
export const siteAllow = (path: string) => (path.toLowerCase() === pagePaths.contact ? "GET, HEAD, POST" : "GET, HEAD");

/** `method` refused at `url`: 405 with the door's Allow (the site's off the doors' paths), or the door's not_found where it serves nothing. */
export function methodRefusal(method: string, url: URL): Promise<Response> {
  const owner = doorAt(url.pathname);
  if (!owner) return Promise.resolve(inPlainWords(405, { Allow: siteAllow(url.pathname) }));
  const allow = owner.allow(url.pathname);
  const refusal =
    allow === undefined ? new Refusal("not_found") : methodNotAllowed(allow, { detail: `${method} is not supported on ${url.pathname}.` });
  return rendered(owner.format(url.origin), url, refusal);
}

/** A body over `limit` bytes refused at `url`. */
export function payloadTooLarge(url: URL, limit: number): Promise<Response> {
  const owner = doorAt(url.pathname);
  if (!owner) return Promise.resolve(inPlainWords(413));
  const detail = `The body is larger than ${limit} bytes, the most the platform hands a function.`;
  return rendered(owner.format(url.origin), url, new Refusal("payload_too_large", { detail }));
}

/**
 * A request that names no host: no door's (a door links to the origin it was asked at, and there is none), answered in
 * plain words, as Netlify's edge answers it before any door.
 */
export const noHost = () => inPlainWords(400);

/** Nothing at `url`, where only the door can say so: its not_found, in its format. */
export function notFound(url: URL): Promise<Response> {
  return rendered(doorAt(url.pathname)!.format(url.origin), url, new Refusal("not_found"));
}

/**
 * netlify dev did not answer (it ended mid-request; runtime.ts starts it again): on a door's path its 503 in its format,
 * as when a store it depends on is down; on the site's, what went wrong in plain words for the developer.
 */
export function unreachable(url: URL, why: string): Promise<Response> {
  // How long netlify dev takes to start again, which the table's outage default (a store's) does not know.
  const retryAfter = { "Retry-After": "20" };
  const owner = doorAt(url.pathname);
  const detail = `npm start's netlify dev did not answer (${why}); it starts again by itself if it ended.`;
  if (!owner)
    return Promise.resolve(
      new Response(`${detail} Try again in a few seconds.\n`, {
        status: 502,
        headers: { "Content-Type": "text/plain; charset=utf-8", ...retryAfter },
      }),
    );
  return rendered(owner.format(url.origin), url, new Refusal("service_unavailable", { detail, headers: retryAfter }));
}

/** lambda-local's limit for a function call under netlify dev offline (netlify-cli's SYNCHRONOUS_FUNCTION_TIMEOUT). */
export const functionTimeoutSeconds = 30;

/** How soon to call again when netlify dev's functions are busy: the front's queue (function-calls.ts) drains in seconds. */
const busyRetryAfter = { "Retry-After": "5" };

function busy(url: URL, detail: string, resolution?: string): Promise<Response> {
  const owner = doorAt(url.pathname);
  if (!owner)
    return Promise.resolve(
      new Response(`${detail} Try again in a few seconds.\n`, {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8", ...busyRetryAfter },
      }),
    );
  const refusal = new Refusal("service_unavailable", { detail, headers: busyRetryAfter, ...(resolution ? { resolution } : {}) });
  return rendered(owner.format(url.origin), url, refusal);
}

/**
 * netlify dev gave up on a function call at its limit (lambda-local's TimeoutError, which it answers 500 with its stack):
 * the machine was too loaded to run it in time. On a door's path its 503 in its format; on the site's, in plain words.
 */
export const gaveUp = (url: URL) =>
  busy(
    url,
    `npm start's netlify dev gave up on this call after its ${functionTimeoutSeconds} s limit for a function: the machine is under load.`,
    "Retry after the number of seconds in the Retry-After header. The call stopped wherever it had got to: a write may have been recorded.",
  );

/** More function calls already waiting for netlify dev than the front queues: this one is refused before any function sees it. */
export const tooManyWaiting = (url: URL, waiting: number) =>
  busy(url, `npm start's netlify dev has ${waiting} function calls waiting already: the machine is under load.`);

/**
 * Any other 500 is netlify dev's report that a function or an edge function threw past its door (every door answers
 * its own failures in its format, src/http/door.ts), with the stack and this machine's paths. That is a bug, not load:
 * it stays a 500, as Netlify answers a function that crashed, so that tests and callers see it, in plain words without
 * the stack, which netlify dev prints in npm start's output.
 */
export const crashed = () =>
  new Response(
    "npm start's netlify dev answered 500: a function or edge function threw past its door, a bug. npm start's output shows the stack.\n",
    { status: 500, headers: { "Content-Type": "text/plain; charset=utf-8" } },
  );
