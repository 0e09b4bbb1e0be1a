import type { Context as FunctionContext } from "@netlify/functions";
import type { Context as EdgeContext } from "@netlify/edge-functions";
import type { Env } from "../config/env.ts";
import { lazy } from "../lazy.ts";
import type { Handler } from "./context.ts";
import { memoryMemo, servedWhereItRuns } from "./netlify-dev.ts";
import { fileMemo } from "./netlify-dev-file-memo.ts";

/**
 * The adapters from Netlify's functions to the doors. A function module imports only this: its door (the SDKs, the
 * schemas, jose) is loaded on the first request, so an instance starts fast, and under netlify dev a call the wrapper
 * answers from its memo never loads the door at all.
 */

function loaded(load: () => Promise<Handler>): Handler {
  const handler = lazy(load);
  return async (request, context) => (await handler())(request, context);
}

/** Under netlify dev every function call runs in a fresh worker: the memo is in files, one folder per runtime. */
const workersMemo = (env: Env) => () => fileMemo(env("UPSTASH_REDIS_REST_URL") ?? "");

/** A Netlify Function (v2) over a door loaded on first use. */
export function netlifyFunction(load: () => Promise<Handler>, env: Env) {
  const door = loaded(load);
  const served = servedWhereItRuns(env, door, workersMemo(env));
  return (request: Request, context: FunctionContext) => served(request, { ip: context.ip, waitUntil: (work) => context.waitUntil(work) });
}

/** A Netlify Edge Function over a door, which may hand the request on with `next`; the edge process lives on, so memory holds the memo. */
export function netlifyEdgeFunction(load: () => Promise<Handler>, env: Env) {
  const door = loaded(load);
  const served = servedWhereItRuns(env, door, memoryMemo);
  return (request: Request, context: EdgeContext) =>
    served(request, { ip: context.ip, waitUntil: (work) => context.waitUntil(work), next: (r) => context.next(r) });
}
