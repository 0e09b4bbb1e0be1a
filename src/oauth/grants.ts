import { randomToken, sha256 } from "./clients.ts";

/** A new grant for an approved consent: approving the same client twice makes two. */
export const consentGrantId = () => `ga_${randomToken(16)}`;

/** A client_credentials client's one grant, the same for each of its tokens: the client proved itself, so it is the grant. */
export const clientGrantId = (clientId: string) => `gc_${sha256(`client_credentials\n${clientId}`).slice(0, 22)}`;
