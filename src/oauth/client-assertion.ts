import type { Redis } from "@upstash/redis";
import type { JWTVerifyGetKey } from "jose";
import { KeySetUnavailable, type ClientKeySet } from "./client-keys.ts";
import { sha256, type ClientRecord } from "./clients.ts";
import { clientAssertionAlgorithms, clientAssertionLimits } from "../tokens/metadata.ts";

/**
 * private_key_jwt client authentication (RFC 7523 §2.2 and §3, RFC 7521 §4.2): a metadata document client proves itself
 * with a short-lived JWT signed by a key it publishes. One operation, `authenticateClientAssertion`; every refusal is a
 * `ClientAssertionRefused` whose `code` names the rule that failed (the token endpoint answers each invalid_client).
 */
export const clientAssertionType = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";

export type ClientAssertionFailure =
  | "missing"
  | "wrong_type"
  | "malformed"
  | "alg_not_allowed"
  | "not_this_client"
  | "no_key_set"
  | "bad_signature"
  | "wrong_issuer"
  | "wrong_audience"
  | "expired"
  | "too_long_lived"
  | "replayed";

export class ClientAssertionRefused extends Error {
  override name = "ClientAssertionRefused";
  readonly code: ClientAssertionFailure;
  /** What the client is told (error_description). */
  readonly description: string;
  /** Why, for the log only, when the client must not be told (a key set fetch). */
  readonly reason: string | undefined;
  constructor(code: ClientAssertionFailure, description: string, reason?: string) {
    super(`${code}: ${description}`);
    this.code = code;
    this.description = description;
    this.reason = reason;
  }
}

export interface ClientAssertionParams {
  client_id?: string | undefined;
  client_assertion_type?: string | undefined;
  client_assertion?: string | undefined;
}

export interface ClientAssertionOptions {
  /** The authorization server's issuer and its token endpoint: the two audiences accepted, each as the whole `aud`. */
  issuer: string;
  tokenEndpoint: string;
  /** Where each `jti` is kept until its assertion expires (SET NX EX). */
  redis: Redis;
  /** The client an assertion names (its `sub`), or undefined. */
  findClient: (clientId: string) => Promise<ClientRecord | undefined>;
  keySet: (client: ClientRecord) => Promise<ClientKeySet>;
  now: () => number;
}

/** Each audience rule in its own words: the refusal names the one that failed. */
const audienceRules = {
  array: "The client_assertion's aud must be a single string, never an array: this server's issuer (or its token endpoint).",
  other: "The client_assertion's aud must be this server's issuer (or its token endpoint), exactly as its metadata gives it.",
};

const refuse = (code: ClientAssertionFailure, description: string, reason?: string) =>
  new ClientAssertionRefused(code, description, reason);

/** The client that signed the assertion, once every rule holds; throws ClientAssertionRefused otherwise. */
export async function authenticateClientAssertion(params: ClientAssertionParams, options: ClientAssertionOptions): Promise<ClientRecord> {
  const { client_assertion: assertion, client_assertion_type: type } = params;
  if (type !== undefined && type !== clientAssertionType) {
    throw refuse("wrong_type", `client_assertion_type must be ${clientAssertionType}.`);
  }
  if (!assertion)
    throw refuse("missing", "This client authenticates with private_key_jwt: send client_assertion and client_assertion_type.");
  if (type === undefined) throw refuse("wrong_type", `Send client_assertion_type ${clientAssertionType} with the client_assertion.`);
  if (assertion.length > clientAssertionLimits.maxLength) throw refuse("malformed", "The client_assertion is too long.");

  const jose = await import("../tokens/jose.ts");
  let alg: unknown, subject: unknown;
  try {
    alg = jose.decodeProtectedHeader(assertion).alg;
    subject = jose.decodeJwt(assertion).sub;
  } catch {
    throw refuse("malformed", "The client_assertion is not a signed JWT.");
  }
  if (!(clientAssertionAlgorithms as readonly unknown[]).includes(alg)) {
    throw refuse("alg_not_allowed", `The client_assertion must be signed with one of ${clientAssertionAlgorithms.join(", ")}.`);
  }
  if (typeof subject !== "string" || subject === "") throw refuse("malformed", "The client_assertion needs sub, the client_id.");
  if (params.client_id !== undefined && params.client_id !== subject) {
    throw refuse("not_this_client", "The client_assertion's sub is not the client_id sent.");
  }
  const client = await options.findClient(subject);
  if (client?.token_endpoint_auth_method !== "private_key_jwt") {
    throw refuse("not_this_client", "The client_assertion's sub names no client that authenticates with private_key_jwt.");
  }

  let keySet: ClientKeySet;
  try {
    keySet = await options.keySet(client);
  } catch (error) {
    if (error instanceof KeySetUnavailable) throw refuse("no_key_set", "The client's keys could not be fetched.", error.message);
    throw error;
  }
  const now = options.now();
  let payload;
  try {
    ({ payload } = await jose.jwtVerify(assertion, keysRefreshedOnce(keySet, jose), {
      algorithms: [...clientAssertionAlgorithms],
      issuer: subject,
      subject,
      audience: [options.tokenEndpoint, options.issuer],
      requiredClaims: ["exp", "jti"],
      clockTolerance: clientAssertionLimits.clockSkewSeconds,
      currentDate: new Date(now),
    }));
  } catch (error) {
    throw refusalOf(error, jose.errors);
  }
  // jose accepts an array that holds an accepted audience; an assertion meant for several servers is meant for none
  // (audience injection, draft-ietf-oauth-rfc7523bis): the issuer or the token endpoint, as one string.
  if (typeof payload.aud !== "string") throw refuse("wrong_audience", audienceRules.array);
  const nowSeconds = Math.floor(now / 1000);
  const { maxLifetimeSeconds, clockSkewSeconds } = clientAssertionLimits;
  if (payload.exp! > nowSeconds + maxLifetimeSeconds + clockSkewSeconds) {
    throw refuse("too_long_lived", `The client_assertion's exp must be at most ${maxLifetimeSeconds} seconds ahead.`);
  }
  if (typeof payload.jti !== "string" || payload.jti === "") throw refuse("malformed", "The client_assertion needs a jti.");
  // Kept until the assertion could no longer pass anyway: its exp plus the skew.
  const keepSeconds = Math.max(1, payload.exp! - nowSeconds + clockSkewSeconds);
  const first = await options.redis.set(`oauth:assertion:${sha256(`${subject} ${payload.jti}`)}`, 1, { nx: true, ex: keepSeconds });
  if (first === null) throw refuse("replayed", "This client_assertion (its jti) was already used.");
  return client;
}

/** A key resolver over the client's set that fetches the set once more when no key matches (a rotated key). */
function keysRefreshedOnce(keySet: ClientKeySet, jose: typeof import("../tokens/jose.ts")): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await jose.createLocalJWKSet(keySet.keys)(header, token);
    } catch (error) {
      if (!(error instanceof jose.errors.JWKSNoMatchingKey)) throw error;
      const refreshed = await keySet.refresh().catch((failure: unknown) => {
        if (failure instanceof KeySetUnavailable) return undefined;
        throw failure;
      });
      if (!refreshed) throw error;
      return jose.createLocalJWKSet(refreshed)(header, token);
    }
  };
}

function refusalOf(error: unknown, errors: typeof import("../tokens/jose.ts").errors): ClientAssertionRefused {
  if (error instanceof errors.JWTExpired) return refuse("expired", "The client_assertion has expired.");
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud")
      return refuse("wrong_audience", Array.isArray(error.payload.aud) ? audienceRules.array : audienceRules.other);
    if (error.claim === "iss" || error.claim === "sub")
      return refuse("wrong_issuer", "The client_assertion's iss and sub must both be the client_id.");
    return refuse("malformed", `The client_assertion's ${error.claim} claim is missing or invalid.`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed)
    return refuse("alg_not_allowed", `The client_assertion must be signed with one of ${clientAssertionAlgorithms.join(", ")}.`);
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWSSignatureVerificationFailed) {
    return refuse("bad_signature", "The client_assertion's signature does not verify with the client's published keys.");
  }
  if (error instanceof errors.JOSEError) return refuse("malformed", "The client_assertion is not a valid signed JWT.");
  throw error;
}
