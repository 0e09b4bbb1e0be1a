import {
  createRequestStateCodec,
  ProtocolError,
  ProtocolErrorCode,
  type RequestStateCodec,
  type ServerContext,
} from "@modelcontextprotocol/server";
import { derivedSecrets } from "../tokens/derived-keys.ts";
import { requestStateTtlSeconds } from "./constants.ts";
import { lazy } from "../lazy.ts";

/** The state a 2026-07-28 round carries to the next: signed, bound to the calling grant, verified before any handler runs. */
export interface StateCodec {
  mint(payload: object, ctx: ServerContext): Promise<string>;
  verify(state: string, ctx: ServerContext): Promise<unknown>;
}

/**
 * The HMAC keys of requestState (src/tokens/derived-keys.ts, label `frontdoor/mcp/requestState/v1`): the first key's
 * signs; every key's verifies, so a rotation keeps the forms that were open across its deploys.
 */
export const requestStateKeys = (signingKeys: string | undefined): Promise<Uint8Array[]> =>
  derivedSecrets(signingKeys, "frontdoor/mcp/requestState/v1");

/**
 * The SDK's HMAC codec (`createRequestStateCodec`) under those keys, built on first use (a read never needs it). Each
 * state is bound to the method and to the grant of the token it was minted for, so nobody else can replay it, not even
 * another person using the same client.
 */
export function requestStateCodec(keys: () => Promise<Uint8Array[]>): StateCodec {
  const built = lazy(() =>
    keys().then((all) =>
      all.map((key) =>
        createRequestStateCodec({
          key,
          ttlSeconds: requestStateTtlSeconds,
          bind: (ctx) => `${ctx.mcpReq.method}\n${(ctx.http?.authInfo?.extra?.grantId as string | undefined) ?? ""}`,
        }),
      ),
    ),
  );
  return {
    mint: async (payload, ctx) => (await built())[0]!.mint(payload, ctx),
    async verify(state, ctx) {
      // Only a signature that no key made moves on to the next key; an expired or foreign state is refused at once.
      for (const codec of await built()) {
        try {
          return await codec.verify(state, ctx);
        } catch (error) {
          if ((error as Error).message !== "mac") throw error;
        }
      }
      throw new Error("mac");
    },
  };
}

/** The SDK's answer to a state it cannot verify, for a state that verified but was minted for another call. */
export const stateRefused = () =>
  new ProtocolError(ProtocolErrorCode.InvalidParams, "Invalid or expired requestState", { reason: "invalid_request_state" });

/** The same value, whatever the order of its members: the JSON a digest is taken of. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : typeof value === "object" && value !== null
      ? Object.fromEntries(
          Object.keys(value)
            .sort()
            .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
        )
      : value;

/** A SHA-256 of a tool's name and its exact arguments, so a state names the one call it was minted for. */
export async function callDigest(name: string, args: Record<string, unknown>): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify([name, canonical(args)]));
  return btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.digest("SHA-256", bytes))));
}
