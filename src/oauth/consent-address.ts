import { createHmac } from "node:crypto";
import ipaddr from "ipaddr.js";
import { derivedSecrets } from "../tokens/derived-keys.ts";
import { lazy } from "../lazy.ts";

/**
 * Where a person approved a client: the address of their own browser at the consent form. Every ceiling one address
 * shares (bookings, briefs and requests from one address, every grant together) counts a consented grant against it,
 * not against the address its API calls come from, which behind a hosted client is everyone's. So one person who
 * approves the same client again and again spends their own address's ceiling, never the others'.
 *
 * It travels in the grant's code and access token as a keyed digest (`ca_` and 22 base64url characters), never as the
 * address: a token is the client's to hold, and the address is the person's. An IPv6 address counts its /64, the block
 * one household or host is given, so a person cannot step through the addresses of their own network. Its form is
 * `consentAddressPattern` in src/tokens/verify.ts, which checks the claim.
 */

/** The label its secret is derived under (src/tokens/derived-keys.ts): nothing else is keyed with it. */
const label = "frontdoor/oauth/consent-address/v1";

/** The block of addresses one person has: an IPv4 address itself (an IPv4-mapped IPv6 one too), an IPv6 address's /64. */
export function addressBlock(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === "ipv4") return address.toString();
  const parts = (address as ipaddr.IPv6).toNormalizedString().split(":").slice(0, 4);
  return `${parts.join(":")}::/64`;
}

/**
 * The digest maker of a deployment, keyed by a secret derived from its first signing key (`derivedSecrets`). A rotation
 * changes the digest of every address: a person's grants from before and after it count apart for one window at most.
 */
export function consentAddresses(signingKeys: string | undefined): (ip: string) => Promise<string> {
  const key = lazy(() => derivedSecrets(signingKeys, label).then(([first]) => first!));
  return async (ip) => {
    const secret = await key();
    return `ca_${createHmac("sha256", secret).update(addressBlock(ip)).digest("base64url").slice(0, 22)}`;
  };
}
