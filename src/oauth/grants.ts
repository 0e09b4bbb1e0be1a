import { randomToken, sha256 } from "./clients.ts";

/**
 * A grant is one person's approval of one client (a consent), or a client that proves itself at the token endpoint and
 * asks for itself (client_credentials). Everything a caller owns (A2A tasks, Idempotency-Keys and repeats, MCP request
 * state, quotas) is keyed by its grant, never by a client_id that others can also get tokens for. The id travels in every
 * access token as the `grant_id` claim: opaque, and the same for every token of the grant.
 */
export const grantIdPattern = /^g[ac]_[A-Za-z0-9_-]{22}$/;

/** A new grant for an approved consent: approving the same client twice makes two. */
export const consentGrantId = () => `ga_${randomToken(16)}`;

/** A client_credentials client's one grant, the same for each of its tokens: the client proved itself, so it is the grant. */
export const clientGrantId = (clientId: string) => `gc_${sha256(`client_credentials\n${clientId}`).slice(0, 22)}`;
