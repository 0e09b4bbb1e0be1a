import type { A2ARequestHandler, ServerCallContext } from "@a2a-js/sdk/server";
import { restHandler } from "@a2a-js/sdk/server/express";
import express from "express";
import { FetchIncomingMessage, FetchServerResponse, toFetchResponse, toReqRes } from "fetch-to-node";

/** One request for the SDK's REST handler: what the gate read and decided before it. */
export interface RestCall {
  request: Request;
  /** The body as the gate parsed it (undefined for GET). */
  body: unknown;
  context: ServerCallContext;
}

/** What the SDK's REST handler answered; undefined when no route of its own matched. */
export type SdkRest = (call: RestCall) => Promise<Response | undefined>;

const ownProperties = (mixins: object, base: object) => Object.create(base, Object.getOwnPropertyDescriptors(mixins)) as object;
const appMember = (app: unknown) => ({ app: { value: app, configurable: true, enumerable: true, writable: true } });

/**
 * The SDK's own HTTP+JSON handler (`restHandler`, Express middleware: its route table, ProtoJSON codecs and AIP-193
 * errors) run inside a web-standard function through fetch-to-node's request and response objects. Express gives each
 * request its app's prototypes (Node's IncomingMessage/ServerResponse), so the app's are rebuilt on fetch-to-node's
 * classes. The gate's context reaches the SDK through `contextBuilder`, keyed by the request's headers object.
 */
export function sdkRestHandler(requestHandler: A2ARequestHandler, basePath: string): SdkRest {
  const contexts = new WeakMap<object, ServerCallContext>();
  const unrouted = new WeakSet<object>();
  const failed = new WeakMap<object, unknown>();
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.request = Object.create(ownProperties(express.request, FetchIncomingMessage.prototype), appMember(app));
  app.response = Object.create(ownProperties(express.response, FetchServerResponse.prototype), appMember(app));
  app.use(
    basePath,
    restHandler({
      requestHandler,
      userBuilder: async (req) => contexts.get(req.headers)!.user!,
      contextBuilder: ({ headers }) => contexts.get(headers)!,
    }),
  );
  app.use((req: express.Request, res: express.Response) => {
    unrouted.add(req.headers);
    res.status(404).end();
  });
  // Express's own error page (HTML with the stack) never answers: an error is thrown to the door, which logs it and
  // answers in the binding's format.
  app.use((error: unknown, req: express.Request, res: express.Response, _next: express.NextFunction) => {
    failed.set(req.headers, error);
    res.status(500).end();
  });

  return async ({ request, body, context }) => {
    // The body was read (capped) and parsed by the gate: the handler gets it parsed, as express.json() would leave it.
    const { req, res } = toReqRes(new Request(request.url, { method: request.method, headers: request.headers }));
    contexts.set(req.headers, context);
    if (body !== undefined) (req as unknown as { body: unknown }).body = body;
    app(req as never, res as never);
    const answer = await toFetchResponse(res);
    if (failed.has(req.headers)) throw failed.get(req.headers);
    if (unrouted.has(req.headers)) return undefined;
    const headers = new Headers({ "Cache-Control": "no-store" });
    for (const name of ["content-type", "a2a-extensions"]) {
      const value = answer.headers.get(name);
      if (value !== null) headers.set(name, value);
    }
    return new Response(answer.body, { status: answer.status, headers });
  };
}
