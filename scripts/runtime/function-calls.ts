import type { ServerResponse } from "node:http";
import { availableParallelism } from "node:os";
import { matchRoute } from "../../src/api/routes.ts";
import { a2aPath, apiBase, mcpPath, oauthBase, oauthPaths, pagePaths } from "../../src/paths.ts";

/**
 * netlify dev runs every function call in a worker thread of its own, which loads the function's door (a few hundred
 * milliseconds of CPU) before it answers, and lambda-local gives a call 30 s from the start of its handler. Handed a
 * burst at once, netlify dev starts every worker together, they share the CPU, and on a loaded machine some pass the
 * limit: netlify dev answers them 500. So npm start's front hands netlify dev only so many function calls at once and
 * queues the rest in order; static files and the edge functions' own work are not held.
 * Part of the local runtime only: production has no front.
 */

/**
 * Whether netlify dev hands this request to a function. The MCP, A2A and OAuth doors are functions with no edge
 * function before them; under /api and /.well-known an edge function runs first, and what it hands on with `next()` comes
 * back through the front (netlify dev names the front's port as the way back, with `x-nf-passthrough`): there a
 * function's route of the /api table, or the key set. netlify dev matches a function's path in any case.
 */
export function callsAFunction(method: string, path: string, passedOnByEdge: boolean): boolean {
  const lower = path.toLowerCase();
  const under = (base: string) => lower === base || lower.startsWith(`${base}/`);
  if (under(mcpPath) || under(a2aPath) || lower.startsWith(`${oauthBase}/`)) return true;
  if (lower.startsWith("/.netlify/functions/")) return true;
  if (lower === pagePaths.contact) return method === "POST";
  if (!passedOnByEdge) return false;
  return (under(apiBase) && matchRoute(path)?.kind === "function") || lower === oauthPaths.jwks;
}

/**
 * How many function calls netlify dev is handed at once: two for each core the machine gives this process. A call's
 * worker spends most of its CPU starting and loading its door, then waits on the store or Cal.com: two for each core
 * keeps every core busy while some wait, where more only share the CPU, each call taking longer with each one more.
 */
export const functionCallsAtOnce = () => 2 * availableParallelism();

/**
 * How many more may wait, in order, for one of those: eight for each. At a few hundred milliseconds a call they are
 * served within seconds; past that a caller is better answered at once (the door's 503 with Retry-After) than left
 * waiting longer than it would.
 */
export const waitingPerCall = 8;

/** A turn to hand netlify dev a function call: `release` gives it back; the client gone, or the queue full. */
export type Turn = { release: () => void } | "gone" | "full";

export class FunctionCalls {
  #running = 0;
  readonly #waiting: ((turn: Turn) => void)[] = [];
  readonly atOnce: number;
  readonly queued: number;

  constructor(atOnce = functionCallsAtOnce(), queued = waitingPerCall * atOnce) {
    this.atOnce = atOnce;
    this.queued = queued;
  }

  /** Calls handed on and not yet answered, and calls waiting. */
  get counts() {
    return { running: this.#running, waiting: this.#waiting.length };
  }

  /** A turn for the call `res` answers, once one is free; "gone" if its client leaves the queue first. */
  take(res: ServerResponse): Promise<Turn> {
    if (this.#running < this.atOnce) return Promise.resolve(this.#granted());
    if (this.#waiting.length >= this.queued) return Promise.resolve("full");
    if (!res.socket || res.socket.destroyed) return Promise.resolve("gone");
    return new Promise<Turn>((resolve) => {
      const leave = () => {
        const at = this.#waiting.indexOf(wake);
        if (at >= 0) this.#waiting.splice(at, 1);
        resolve("gone");
      };
      const wake = (turn: Turn) => {
        res.off("close", leave);
        resolve(turn);
      };
      this.#waiting.push(wake);
      res.once("close", leave);
    });
  }

  #granted(): Turn {
    this.#running++;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.#running--;
        const next = this.#waiting.shift();
        if (next) next(this.#granted());
      },
    };
  }
}
