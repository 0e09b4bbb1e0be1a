import { Redis } from "@upstash/redis";
import { nodeRequester } from "../../src/store/node-requester.ts";
import { patience } from "./patience.ts";

/**
 * The Upstash client as the functions build it (src/store/node-requester.ts: node:http, where the client's own `fetch`
 * costs about three times the CPU a command), waiting the shared patience: for what the functions run, and for a test's
 * own reads where it makes many.
 */
export const nodeRedis = ({ url, token }: { url: string; token: string }) =>
  new Redis(nodeRequester({ url, token, timeoutMs: patience, retries: 1, backoffMs: 50 }));
