import * as oauth from "oauth4webapi";
import { consentByHttp, discover, insecure, type Http } from "./oauth-client.ts";

/** Where a native or hosted client's consent lands in these tests (a loopback redirect URI, any port). */
export const callbackUri = "http://127.0.0.1/callback";

/**
 * People approving one public client (a registration's client_id or a metadata document's URL), each in their own
 * browser, and that client's agent redeeming each person's code: one grant per approval. `http` gives the fetch each
 * party uses (an in-process deployment's `d.fetchFrom(ip)`, or the network).
 */
export async function approvals(base: string, clientId: string, http: { browser: () => Http; agent: () => Http }) {
  const as = await discover(base, http.agent());
  const client: oauth.Client = { client_id: clientId, token_endpoint_auth_method: "none" };
  return {
    as,
    /** One person's approval in their browser, then the agent's token for it. */
    async token(scope = "svc:brief", resource?: string): Promise<string> {
      const verifier = oauth.generateRandomCodeVerifier();
      const params = {
        client_id: clientId,
        redirect_uri: callbackUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        scope,
        ...(resource ? { resource } : {}),
      };
      const { location } = await consentByHttp(as, params, "approve", http.browser());
      const callback = oauth.validateAuthResponse(as, client, location, oauth.expectNoState);
      const options = { ...insecure, [oauth.customFetch]: http.agent() };
      const response = await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), callback, callbackUri, verifier, options);
      return (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
    },
  };
}
