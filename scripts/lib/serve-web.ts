import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type WebHandler = (request: Request) => Response | Promise<Response>;

export interface WebServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) value.forEach((v) => headers.append(name, v));
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  return new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined });
}

async function send(res: ServerResponse, response: Response) {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  res.end(Buffer.from(await response.arrayBuffer()));
}

/** Serves a web-standard handler on loopback; port 0 picks a free port. */
export function serveWeb(handler: WebHandler, { port = 0, host = "127.0.0.1" } = {}): Promise<WebServer> {
  const server = createServer((req, res) => {
    const origin = `http://${req.headers.host ?? `${host}:${port}`}`;
    toRequest(req, origin)
      .then(handler)
      .then((response) => send(res, response))
      .catch((error: unknown) => {
        console.error(error);
        if (!res.headersSent) res.writeHead(500, { "Content-Type": "text/plain" });
        res.end("internal error");
      });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const { port: actual } = server.address() as AddressInfo;
      resolve({
        url: `http://${host}:${actual}`,
        port: actual,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
