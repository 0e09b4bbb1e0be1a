import { problemResponse } from "../api/problem.ts";
import { readCapped } from "../http/read-capped.ts";
import type { ProblemCode } from "../api/problems.ts";
import { quotaHeaders } from "../limits/headers.ts";
import { fileBrief, type PipelineDeps } from "./pipeline.ts";
import { accepted } from "./receipt.ts";

/** The longest Idempotency-Key accepted, in characters. */
export const maxIdempotencyKeyLength = 255;
/** An Idempotency-Key: 1 to 255 visible ASCII characters (spaces allowed after the first). */
export const idempotencyKeyPattern = new RegExp(`^[\\x21-\\x7E][\\x20-\\x7E]{0,${maxIdempotencyKeyLength - 1}}$`);

/** The largest request body accepted, in bytes. */
export const maxBriefBytes = 32 * 1024;

/** The outcome of checking a request's access token for `svc:brief` (the shared OAuth verifier). */
export type AuthOutcome =
  { ok: true; clientId: string } | { ok: false; code: "invalid_token" | "insufficient_scope"; detail: string; challenge: string };

export interface BriefsHandlerDeps {
  baseUrl: string;
  authenticate: (request: Request) => Promise<AuthOutcome>;
  pipeline: PipelineDeps;
  /** "A person replies within one business day." (content/contact.yaml) */
  responseTime: string;
}

const noStore = { "Cache-Control": "no-store" };

/** POST /api/v1/briefs. */
export function createBriefsHandler({ baseUrl, authenticate, pipeline, responseTime }: BriefsHandlerDeps) {
  return async (request: Request, background?: (work: Promise<unknown>) => void): Promise<Response> => {
    const path = new URL(request.url).pathname;
    const problem = (code: ProblemCode, detail?: string, headers?: Record<string, string>, extensions?: Record<string, unknown>) =>
      problemResponse(baseUrl, code, { instance: path, detail, headers, extensions });

    const auth = await authenticate(request);
    if (!auth.ok) return problem(auth.code, auth.detail, { "WWW-Authenticate": auth.challenge });

    const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase() ?? "";
    if (type !== "application/json" && !type.endsWith("+json"))
      return problem("invalid_json", `Content-Type must be application/json, not "${type || "missing"}".`);

    const bytes = await readCapped(request, maxBriefBytes);
    if (bytes === undefined) return problem("payload_too_large", `The body is larger than ${maxBriefBytes} bytes.`);
    const text = new TextDecoder().decode(bytes);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch (error) {
      return problem("invalid_json", `The body is not valid JSON: ${(error as Error).message}.`);
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) {
      return problem(
        "invalid_json",
        `The body must be a JSON object, not ${body === null ? "null" : Array.isArray(body) ? "an array" : `a ${typeof body}`}.`,
      );
    }

    const idempotencyKey = request.headers.get("idempotency-key") ?? undefined;
    if (idempotencyKey !== undefined && !idempotencyKeyPattern.test(idempotencyKey)) return problem("invalid_idempotency_key");

    let result: Awaited<ReturnType<typeof fileBrief>>;
    try {
      result = await fileBrief(
        { body: body as Record<string, unknown>, channel: "rest", clientId: auth.clientId, idempotencyKey },
        // The first e-mail attempt runs after the answer (context.waitUntil), so a slow Postmark never delays it.
        background ? { ...pipeline, background } : pipeline,
      );
    } catch (error) {
      // Nothing is recorded unless the lead's transaction completed, so the client can safely retry.
      console.error(`brief not accepted, the lead store failed: ${String(error)}`);
      return problem("service_unavailable", "The lead store is unavailable; the brief was not recorded.", { "Retry-After": "30" });
    }
    switch (result.kind) {
      case "invalid":
        return problem(
          "invalid_brief",
          `${result.errors.length} field${result.errors.length === 1 ? " is" : "s are"} missing or invalid.`,
          undefined,
          { errors: result.errors },
        );
      case "dry_run":
      case "filed":
      case "already_filed": {
        const outcome = accepted(result, { studio: pipeline.studio, responseTime });
        if (outcome.kind === "dry_run") return Response.json(outcome.result, { status: 200, headers: noStore });
        // A repeat is the earlier lead (200); a new lead and its idempotent replay are the same 201.
        const headers = outcome.kind === "replayed" ? { ...noStore, "Idempotent-Replayed": "true" } : noStore;
        return Response.json(outcome.receipt, { status: outcome.kind === "repeat" ? 200 : 201, headers });
      }
      case "quota_exceeded":
        return problem("brief_quota_exceeded", undefined, quotaHeaders(result.quota));
      case "idempotency_conflict":
        return problem("idempotency_key_reused");
    }
  };
}
