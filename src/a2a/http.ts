import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { a2aRestPath } from "../paths.ts";
import { a2aErrors } from "./errors.ts";
import { a2aGate, type A2AHandlerOptions } from "./gate.ts";
import { jsonRpcBinding } from "./json-rpc.ts";
import { restBinding } from "./rest.ts";

export type { A2AHandlerOptions } from "./gate.ts";

/**
 * The A2A door: HTTP+JSON under /a2a/v1/rest, JSON-RPC at /a2a/v1, both behind one gate (gate.ts). A path of neither is
 * JSON-RPC's not_found.
 */
export function createA2AHandler(options: A2AHandlerOptions): Handler {
  const { requestHandler, log = console.error } = options;
  const gate = a2aGate(options);
  const app = door(a2aErrors, log);
  // REST first: it answers every method under its path, so JSON-RPC's middleware (mounted at every path) never runs there.
  app.route(a2aRestPath, restBinding(requestHandler, gate, log));
  app.route("/", jsonRpcBinding(requestHandler, gate, log));
  return handlerOf(app);
}
