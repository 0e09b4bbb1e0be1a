import { a2aRestPath } from "../paths.ts";
import { maxIdLength } from "./constants.ts";

/**
 * What a request to A2A's HTTP+JSON binding asks, read from its path exactly as written: the SDK's REST route table
 * (each route also under one leading tenant segment, registered right after it, as the SDK registers them), matched
 * case-sensitively, with no trailing slash, no empty segment and no percent-encoding. Express, which runs the SDK's
 * handler, matches more loosely (any case, a trailing slash, encoded characters): a path it would take that the gate
 * read otherwise could skip the gate's skill decision and brief count, so anything this table does not name answers
 * not_found before Express sees it.
 */
export type RestOperation = "send" | "list" | "cancel" | "task" | "card";

// A task id, or a tenant, of at most maxIdLength characters: a longer one names no operation.
const segment = `[A-Za-z0-9._~!$&'()*+,;=@-]{1,${maxIdLength}}`;
const routes: [method: string, path: string, operation: RestOperation][] = [
  ["GET", "/extendedAgentCard", "card"],
  ["POST", "/message:send", "send"],
  ["POST", "/message:stream", "send"],
  ["GET", `/tasks/${segment}:subscribe`, "task"],
  ["POST", `/tasks/${segment}:subscribe`, "task"],
  ["POST", `/tasks/${segment}:cancel`, "cancel"],
  ["GET", `/tasks/${segment}`, "task"],
  ["GET", "/tasks", "list"],
  ["POST", `/tasks/${segment}/pushNotificationConfigs`, "task"],
  ["GET", `/tasks/${segment}/pushNotificationConfigs`, "task"],
  ["GET", `/tasks/${segment}/pushNotificationConfigs/${segment}`, "task"],
];
const table = routes.flatMap(([method, path, operation]) =>
  [path, `/${segment}${path}`].map((p) => ({ method, pattern: new RegExp(`^${p}$`), operation })),
);

/** HEAD asks what GET would answer, without the body (RFC 9110 §9.3.2): every GET route takes it. */
const routedAs = (method: string) => (method === "HEAD" ? "GET" : method);

/** The operation of a request under /a2a/v1/rest (its pathname as sent), or undefined when the binding has none. */
export function restOperation(method: string, pathname: string): RestOperation | undefined {
  if (!pathname.startsWith(`${a2aRestPath}/`)) return undefined;
  const route = pathname.slice(a2aRestPath.length);
  return table.find((r) => r.method === routedAs(method) && r.pattern.test(route))?.operation;
}

/** The methods the binding takes at a path (its pathname as sent), HEAD wherever GET: none where it has no operation at all. */
export const restMethods = (pathname: string) =>
  pathname === a2aRestPath ? ["GET", "HEAD"] : ["GET", "HEAD", "POST"].filter((method) => restOperation(method, pathname) !== undefined);

/** The binding's operations as its base URL describes them: each method and path, `{id}` for a task's. */
export const restOperations = () => routes.map(([method, path]) => ({ method, path: `${a2aRestPath}${path.replaceAll(segment, "{id}")}` }));
