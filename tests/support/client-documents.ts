import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";

/** Listens on a free loopback port; gives the server's origin. */
export async function listenOnLoopback(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export const closeServer = (server: Server | undefined) => new Promise<unknown>((resolve) => (server ? server.close(resolve) : resolve(0)));

/** A native app's loopback listener: where the browser lands after the consent screen. */
export async function startCallbackServer() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/plain" });
    res.end("You can close this window.");
  });
  return { url: `${await listenOnLoopback(server)}/callback`, close: () => closeServer(server) };
}

/**
 * A host publishing client ID metadata documents and key sets on loopback (the authorization server's test mode,
 * FRONTDOOR_ALLOW_LOOPBACK_CIMD): JSON by path, a string as it is (so it can be broken), 404 for anything else, and
 * the requests each path received.
 */
export async function startDocumentHost() {
  const documents = new Map<string, unknown>();
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = req.url ?? "";
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const document = documents.get(path);
    if (document === undefined) return res.writeHead(404).end();
    res.writeHead(200, { "content-type": "application/json" });
    res.end(typeof document === "string" ? document : JSON.stringify(document));
  });
  const origin = await listenOnLoopback(server);
  return {
    origin,
    hits,
    /** Publishes a document at `path`; gives its URL. */
    publish(path: string, document: unknown) {
      documents.set(path, document);
      return `${origin}${path}`;
    },
    /** A metadata document whose client_id is its own URL. */
    publishClient(path: string, metadata: Record<string, unknown>) {
      return this.publish(path, { client_id: `${origin}${path}`, ...metadata });
    },
    /**
     * A client that proves itself with a key (private_key_jwt): its document names a key set published beside it. The
     * key carries `kid` when one is given.
     */
    async publishKeyedClient(path: string, metadata: Record<string, unknown>, kid?: string) {
      const pair = await generateKeyPair("ES256", { extractable: true });
      const jwk: JWK = { ...(await exportJWK(pair.publicKey)), ...(kid ? { kid } : {}), alg: "ES256", use: "sig" };
      const jwksUri = this.publish(`${path}.jwks`, { keys: [jwk] });
      const clientId = this.publishClient(path, { token_endpoint_auth_method: "private_key_jwt", jwks_uri: jwksUri, ...metadata });
      return { clientId, privateKey: pair.privateKey, privateJwk: await exportJWK(pair.privateKey), kid };
    },
    close: () => closeServer(server),
  };
}

export type DocumentHost = Awaited<ReturnType<typeof startDocumentHost>>;
