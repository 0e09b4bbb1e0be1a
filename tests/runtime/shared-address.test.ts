import { describe, expect, inject, it } from "vitest";
import { clientAddressHeader } from "../../src/http/netlify-dev.ts";
import { policies } from "../../src/limits/policies.ts";
import { fetchFromLoopback } from "../support/loopback.ts";
import { freshBrief } from "../support/briefs.ts";
import { clientCredentialsToken, discover } from "../support/oauth-client.ts";
import { callbackUri } from "../support/people.ts";

/**
 * Two people at two addresses of this machine's loopback range, through npm start: its front hands each function and the
 * /api edge gateway its client's own address, as Netlify does (netlify dev alone tells a function the address of the
 * connection it was called on, and every edge function 127.0.0.1), and drops the header it hands it in whenever a client
 * sends one. What the ceilings make of the addresses, a person farming grants behind a hosted client's egress among 49
 * others, is in tests/doors/shared-address.test.ts.
 */
const base = inject("baseUrl");
// Addresses only this file calls from, so the counts are its alone.
const [one, another] = ["127.0.0.2", "127.0.0.3"];

describe("npm start", () => {
  it("hands each function and the /api gateway its client's own address, never one the client names", async () => {
    const as = await discover(base);
    const registered = async (from: string, headers: Record<string, string> = {}) => {
      const metadata = { client_name: "Counted apart", redirect_uris: [callbackUri], token_endpoint_auth_method: "none" };
      const res = await fetchFromLoopback(from)(as.registration_endpoint!, {
        method: "POST",
        headers: { "content-type": "application/json", ...headers },
        body: JSON.stringify(metadata),
      });
      expect(res.status).toBe(201);
      return res.headers.get("RateLimit");
    };
    const read = async (from: string, headers: Record<string, string> = {}) => {
      const res = await fetchFromLoopback(from)(`${base}/api/v1/company`, { headers });
      expect(res.status).toBe(200);
      return res.headers.get("RateLimit");
    };
    // Were the header a client sends read, the second call of each would count at the first address, counted once already.
    const registrations = policies["oauth-register"].quota - 1;
    expect(await registered(one)).toContain(`"oauth-register";r=${registrations}`);
    expect(await registered(another, { [clientAddressHeader]: one })).toContain(`"oauth-register";r=${registrations}`);
    expect(await registered(one)).toContain(`"oauth-register";r=${registrations - 1}`);
    const reads = policies["public-api"].quota - 1;
    expect(await read(one)).toContain(`"public-api";r=${reads}`);
    expect(await read(another, { [clientAddressHeader]: one })).toContain(`"public-api";r=${reads}`);
  });

  it("hands a function behind the /api gateway its client's address too, not the gateway's", async () => {
    // A machine client's grant counts the address it calls from: two machines at two addresses, a brief each.
    const filed = async (from: string) => {
      const http = fetchFromLoopback(from);
      const { token } = await clientCredentialsToken(base, "svc:brief", undefined, http);
      const res = await http(`${base}/api/v1/briefs`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
        body: JSON.stringify(freshBrief()),
      });
      expect(res.status).toBe(201);
      return res.headers.get("RateLimit");
    };
    const briefs = policies["briefs-per-address"].quota - 1;
    expect(await filed(one)).toContain(`"briefs-per-address";r=${briefs}`);
    expect(await filed(another)).toContain(`"briefs-per-address";r=${briefs}`);
  });
});
