import { Agent, fetch as undiciFetch } from "undici";
import type { Http } from "./oauth-client.ts";

/**
 * A client's `fetch` from one address of this machine's loopback range (127.0.0.0/8: any of them is this machine's), so
 * a test through npm start can be two people at two addresses: npm start hands each function its client's address.
 */
export function fetchFromLoopback(address: string): Http {
  const dispatcher = new Agent({ localAddress: address });
  return ((input: string | URL | Request, init?: RequestInit) =>
    undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as Http;
}
