import { Server } from "node:http";
import { isMainThread } from "node:worker_threads";

/**
 * Preloaded (`node --import`) into netlify dev's main process by npm start. netlify dev believes it serves at PORT
 * (its URL, the site URL it hands edge functions, where edge functions' next() calls back); this moves only the HTTP
 * server it binds on PORT to the internal port named in this module's URL, on loopback, so that npm start's front
 * (front.ts) can take PORT. netlify dev's check that PORT is free (get-port binds it a moment, a plain net.Server) is
 * left alone: it runs before the front listens, which is why a restart of netlify dev waits for the front to let go. Only the main thread binds servers; a worker that loaded this would leave everything alone.
 */
const query = new URL(import.meta.url).searchParams;
const publicPort = Number(query.get("port"));
const internalPort = Number(query.get("internal"));

if (isMainThread && publicPort > 0 && internalPort > 0) {
  const listen = Server.prototype.listen;
  Object.defineProperty(Server.prototype, "listen", {
    configurable: true,
    writable: true,
    value: function (this: Server, ...args: unknown[]) {
      const options = args[0];
      const onPublicPort =
        options === publicPort || (typeof options === "object" && options !== null && (options as { port?: unknown }).port === publicPort);
      if (!onPublicPort) return listen.apply(this, args as Parameters<Server["listen"]>);
      const onListening = args.find((a): a is () => void => typeof a === "function");
      return listen.call(this, { port: internalPort, host: "127.0.0.1" }, onListening);
    },
  });
}
