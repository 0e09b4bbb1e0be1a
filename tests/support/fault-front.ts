import { Agent, createServer, request, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * What a dependency (Upstash's REST endpoint, Postmark's API) does to the calls that reach it through the front:
 * - `down`: nothing listens on the port (connection refused);
 * - `slow`: the call is carried out, but its answer is held until the fault is lifted (never, if the client gives up
 *   first): how late is the test's to say, never a time that a loaded machine could pass;
 * - `http-500`: an error status with Upstash's JSON error body;
 * - `malformed`: 200 with a body that is not JSON (a proxy's HTML page, say).
 */
export type Fault = "down" | "slow" | "http-500" | "malformed";

export interface FaultFront {
  url: string;
  /** Calls that reached the front (a `down` front receives none). */
  calls: number;
  /** Answers a `slow` front holds right now: a test waits for its call to be held, not for a while. */
  held: number;
  set(fault: Fault | undefined): Promise<void>;
  close(): Promise<void>;
}

/** One call to `target` over `agent`, its whole answer read. */
function forward(
  target: URL,
  agent: Agent,
  call: { method: string; path: string; headers: Record<string, string | string[]>; body: Buffer | undefined },
): Promise<{ status: number; contentType: string | undefined; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const headers = call.body ? { ...call.headers, "content-length": String(call.body.length) } : call.headers;
    const outgoing = request(
      { host: target.hostname, port: target.port, method: call.method, path: call.path, headers, agent },
      (answer: IncomingMessage) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () =>
          resolve({ status: answer.statusCode!, contentType: answer.headers["content-type"], body: Buffer.concat(chunks) }),
        );
        answer.on("error", reject);
      },
    );
    outgoing.on("error", (error: NodeJS.ErrnoException) => {
      // The target closed a kept-alive connection as this call went out on it: the call never reached it.
      if (outgoing.reusedSocket && error.code === "ECONNRESET") forward(target, agent, call).then(resolve, reject);
      else reject(error);
    });
    outgoing.end(call.body);
  });
}

/**
 * A TCP-level front for a dependency: it forwards every call to `target` unchanged, or injects one fault. `down`
 * really closes the listening socket and `set(undefined)` listens again on the same port, so a client configured with
 * the front's URL sees a true outage and a true recovery, without being rebuilt. It forwards with `node:http`, not
 * `fetch`, whose machinery costs about three times the CPU per call (docs/performance.md): every store command of an
 * in-process test passes here.
 */
export async function startFaultFront(target: string): Promise<FaultFront> {
  const upstream = new URL(target);
  const agent = new Agent({ keepAlive: true });
  let fault: Fault | undefined;
  let calls = 0;
  /** The answers held while the front is slow, each sent once the fault is lifted, or dropped with its client. */
  const held = new Set<() => void>();
  const late = (res: ServerResponse) =>
    new Promise<void>((resolve) => {
      const end = () => (held.delete(end), resolve());
      held.add(end);
      res.once("close", end);
    });
  const sendHeld = () => {
    for (const end of [...held]) end();
  };
  const server: Server = createServer(async (req, res) => {
    calls += 1;
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (fault === "http-500") {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: "ERR internal error (injected)" }));
      return;
    }
    if (fault === "malformed") {
      res.writeHead(200, { "content-type": "text/html" }).end("<html><body>502 Bad Gateway</body></html>");
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(
        (entry): entry is [string, string | string[]] =>
          entry[1] !== undefined && !["host", "connection", "content-length", "transfer-encoding"].includes(entry[0]),
      ),
    );
    const method = req.method ?? "GET";
    const body = method === "GET" || method === "HEAD" ? undefined : Buffer.concat(chunks);
    const slow = fault === "slow";
    try {
      const answer = await forward(upstream, agent, { method, path: req.url ?? "/", headers, body });
      // Slow means the work is done but the answer comes late: a client that gives up first never learns the outcome.
      if (slow) await late(res);
      if (res.destroyed) return;
      res.writeHead(answer.status, { "content-type": answer.contentType ?? "application/json" }).end(answer.body);
    } catch {
      res.destroy();
    }
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  const stop = () =>
    new Promise<void>((resolve) => {
      sendHeld();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    get calls() {
      return calls;
    },
    get held() {
      return held.size;
    },
    async set(next) {
      if (fault === "slow" && next !== "slow") sendHeld();
      if (next === "down" && fault !== "down") await stop();
      if (next !== "down" && fault === "down") await listen(port);
      fault = next;
    },
    async close() {
      if (fault !== "down") await stop();
      agent.destroy();
    },
  };
}
