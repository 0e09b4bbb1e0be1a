import { randomUUID } from "node:crypto";
import { serveWeb, type WebServer } from "../../scripts/lib/serve-web.ts";

/**
 * A local stand-in for Postmark's HTTP API, for the real `postmark` client: POST /email (with its documented
 * success body and error codes) and GET /messages/outbound (search by metadata). Faults are queued per test.
 */
export type Fault = "500" | "503" | "429" | "timeout" | "inactive-recipient" | "sender-signature" | "bad-token" | "accept-then-drop";

export interface SentMessage {
  id: string;
  body: Record<string, unknown>;
}

export interface PostmarkStandIn extends WebServer {
  token: string;
  sent: SentMessage[];
  /** Every POST /email received, failed ones included. */
  attempts: number;
  fail(...faults: Fault[]): void;
  close(): Promise<void>;
}

/** What a stand-in in another process received (the runtime's, through its test control): every attempt, and what it sent. */
export const standInMessages = async (url: string) =>
  (await (await fetch(`${url}/_standin/messages`)).json()) as { attempts: number; sent: SentMessage[] };

/** The messages a stand-in in another process sent about one lead. */
export const sentForLead = async (url: string, leadId: string) =>
  (await standInMessages(url)).sent.filter((m) => (m.body.Metadata as { lead_id?: string } | undefined)?.lead_id === leadId);

const errorBody = (code: number, message: string) => ({ ErrorCode: code, Message: message });

export async function startPostmarkStandIn(token = "postmark-test-token", timeoutMs = 3_000): Promise<PostmarkStandIn> {
  const sent: SentMessage[] = [];
  const faults: Fault[] = [];
  let attempts = 0;

  const handler = async (request: Request): Promise<Response> => {
    const url = new URL(request.url);
    // Test control, for tests in another process than the stand-in (the runtime project's global setup).
    if (url.pathname === "/_standin/messages") return Response.json({ attempts, sent });
    if (url.pathname === "/_standin/faults" && request.method === "POST") {
      faults.push(...((await request.json()) as Fault[]));
      return new Response(null, { status: 204 });
    }
    if (request.headers.get("x-postmark-server-token") !== token) {
      return Response.json(errorBody(10, "No Account or Server API tokens were supplied in the HTTP headers."), { status: 401 });
    }
    if (request.method === "GET" && url.pathname === "/messages/outbound") {
      const filters = [...url.searchParams].filter(([k]) => k.startsWith("metadata_")).map(([k, v]) => [k.slice("metadata_".length), v]);
      const tag = url.searchParams.get("tag");
      const found = sent.filter(
        (m) => (!tag || m.body.Tag === tag) && filters.every(([k, v]) => (m.body.Metadata as Record<string, string>)?.[k!] === v),
      );
      return Response.json({
        TotalCount: found.length,
        Messages: found
          .slice(0, Number(url.searchParams.get("count") ?? 50))
          .map((m) => ({ MessageID: m.id, Tag: m.body.Tag, Metadata: m.body.Metadata })),
      });
    }
    if (request.method !== "POST" || url.pathname !== "/email") return Response.json(errorBody(0, "not found"), { status: 404 });

    attempts += 1;
    const body = (await request.json()) as Record<string, unknown>;
    const fault = faults.shift();
    switch (fault) {
      case "500":
        return Response.json(errorBody(0, "Internal Server Error"), { status: 500 });
      case "503":
        return Response.json(errorBody(0, "Service Unavailable"), { status: 503 });
      case "429":
        return Response.json(errorBody(429, "Rate limit exceeded."), { status: 429 });
      case "timeout":
        await new Promise((r) => setTimeout(r, timeoutMs));
        return Response.json(errorBody(0, "too late"), { status: 504 });
      case "inactive-recipient":
        return Response.json(
          errorBody(
            406,
            `You tried to send to recipient(s) that have been marked as inactive. Found inactive addresses: ${String(body.To)}.`,
          ),
          { status: 422 },
        );
      case "sender-signature":
        return Response.json(errorBody(400, "The 'From' address you supplied is not a Sender Signature on your account."), { status: 422 });
      case "bad-token":
        return Response.json(errorBody(10, "Request does not contain a valid Server token."), { status: 401 });
      case "accept-then-drop": {
        // Postmark accepted the message, but the response never reaches the client.
        sent.push({ id: randomUUID(), body });
        await new Promise((r) => setTimeout(r, timeoutMs));
        return Response.json(errorBody(0, "too late"), { status: 504 });
      }
      default: {
        if (!body.From || !body.To || (!body.TextBody && !body.HtmlBody))
          return Response.json(errorBody(300, "Invalid email request"), { status: 422 });
        const id = randomUUID();
        sent.push({ id, body });
        return Response.json({ To: body.To, SubmittedAt: new Date().toISOString(), MessageID: id, ErrorCode: 0, Message: "OK" });
      }
    }
  };

  const server = await serveWeb(handler);
  return {
    ...server,
    token,
    sent,
    get attempts() {
      return attempts;
    },
    fail: (...more) => faults.push(...more),
  };
}
