import { Refusal } from "../http/refusal.ts";
import { batchRevision, maxBatchMessages } from "./constants.ts";
import { servedProtocolVersions } from "./versions.ts";

const envelopeVersionKey = "io.modelcontextprotocol/protocolVersion";
const oneEach = "send each message in a POST of its own";

/** The 2026-07-28 envelope's claim in a message's `params._meta`, which a 2025-03-26 message never carries. */
const claimsEnvelope = (message: unknown) => {
  const params = typeof message === "object" && message !== null ? (message as { params?: unknown }).params : undefined;
  const meta = typeof params === "object" && params !== null ? (params as { _meta?: unknown })._meta : undefined;
  return typeof meta === "object" && meta !== null && Object.hasOwn(meta, envelopeVersionKey);
};

const isInitialize = (message: unknown) =>
  typeof message === "object" && message !== null && (message as { method?: unknown }).method === "initialize";

/**
 * The first request of a batch whose id an earlier request of it already has (1 and "1" are two ids): MCP wants every
 * request's id unused, and the SDK's transport would answer only one of them.
 */
function reusedId(batch: unknown[]): { index: number; first: number } | undefined {
  const seen = new Map<string, number>();
  for (const [index, message] of batch.entries()) {
    if (typeof message !== "object" || message === null || !("method" in message)) continue;
    const id = (message as { id?: unknown }).id;
    if (typeof id !== "string" && typeof id !== "number") continue;
    const key = `${typeof id}:${id}`;
    const first = seen.get(key);
    if (first !== undefined) return { index, first };
    seen.set(key, index);
  }
  return undefined;
}

/**
 * A JSON-RPC batch (an array body) goes no further unless it is one MCP 2025-03-26 allows, and one this server takes:
 * sent as that revision (no `MCP-Protocol-Version`, or that one), none of its messages in the 2026-07-28 envelope, at
 * least one message and at most `maxBatchMessages`, no `initialize` among them (the revision's lifecycle: it must not be
 * part of a batch), each request with an id of its own. Anything else is an Invalid Request (-32600) in words, before
 * the SDK sees it.
 */
export function refuseBatch(batch: unknown[], headers: Headers): void {
  const named = headers.get("mcp-protocol-version");
  if (named !== null && named !== batchRevision) {
    // A revision the client made up is not repeated back: it is not one of ours.
    const revision = servedProtocolVersions.includes(named) ? `MCP ${named}` : "The revision this request's MCP-Protocol-Version names";
    throw new Refusal("invalid_request", {
      detail: `${revision} has no JSON-RPC batches (only ${batchRevision} had them): ${oneEach}.`,
    });
  }
  if (batch.some(claimsEnvelope))
    throw new Refusal("invalid_request", {
      detail: `A message of this batch carries the _meta envelope of MCP 2026-07-28 or later, which has no JSON-RPC batches (only ${batchRevision} had them): ${oneEach}.`,
    });
  if (batch.length === 0)
    throw new Refusal("invalid_request", { detail: "The batch is empty: a JSON-RPC batch carries at least one message." });
  if (batch.length > maxBatchMessages)
    throw new Refusal("invalid_request", {
      detail: `A batch carries at most ${maxBatchMessages} messages, and this one carries ${batch.length}: send them in smaller batches, or one per POST.`,
    });
  if (batch.some(isInitialize))
    throw new Refusal("invalid_request", {
      detail: `initialize must not be part of a JSON-RPC batch (MCP ${batchRevision}): send it on its own, first.`,
    });
  const reused = reusedId(batch);
  if (reused)
    throw new Refusal("invalid_request", {
      detail: `Message ${reused.index + 1} of the batch has the id of message ${reused.first + 1}: give each request an id of its own.`,
    });
}
