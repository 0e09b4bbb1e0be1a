import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, gzip } from "node:zlib";
import { parseAllHeaders } from "@netlify/headers-parser";
import { brotliOptions } from "../lib/page-budgets.ts";

/**
 * dist/ served the way Netlify's CDN serves it, for measuring pages without the local emulator's per-request cost:
 * pretty URLs (/offers is offers.html), 404.html with status 404, the headers of netlify.toml and dist/_headers, and
 * Brotli or gzip for text when the client accepts it. Not a general server: only what the pages bench needs.
 */
export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

const types: Record<string, string> = {
  ".html": "text/html; charset=UTF-8",
  ".css": "text/css; charset=UTF-8",
  ".js": "application/javascript; charset=UTF-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".txt": "text/plain; charset=UTF-8",
  ".xml": "application/xml",
  ".md": "text/markdown; charset=UTF-8",
};

const compressible = (type: string) => /^(text\/|application\/(json|javascript|xml)|image\/svg)/.test(type);

export async function serveStaticSite(root: string): Promise<StaticSite> {
  const dist = join(root, "dist");
  // Netlify's own parser and path matching, for netlify.toml's [[headers]] and the build's _headers file.
  const { headers: rules, errors } = await parseAllHeaders({
    headersFiles: [join(dist, "_headers")],
    netlifyConfigPath: join(root, "netlify.toml"),
    configHeaders: undefined,
    minimal: false,
  });
  if (errors.length > 0) throw new Error(`the headers do not parse: ${errors.map(String).join("; ")}`);
  const fileFor = (pathname: string) => {
    const path = normalize(decodeURIComponent(pathname)).replace(/^(\.\.[/\\])+/, "");
    if (path.endsWith("/")) return join(dist, path, "index.html");
    return extname(path) ? join(dist, path) : join(dist, `${path}.html`);
  };

  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url ?? "/", "http://localhost");
    let status = 200;
    let file = fileFor(pathname);
    let body = await readFile(file).catch(() => undefined);
    if (!body) {
      status = 404;
      file = join(dist, "404.html");
      body = await readFile(file);
    }
    const type = types[extname(file)] ?? "application/octet-stream";
    const headers: Record<string, string> = { "Content-Type": type, "Cache-Control": "public, max-age=0, must-revalidate" };
    if (status === 200)
      for (const rule of rules) if ("forRegExp" in rule && rule.forRegExp.test(pathname)) Object.assign(headers, rule.values);
    const accepted = String(req.headers["accept-encoding"] ?? "");
    if (compressible(type) && /\bbr\b/.test(accepted)) {
      body = await promisify(brotliCompress)(body, brotliOptions);
      headers["Content-Encoding"] = "br";
    } else if (compressible(type) && /\bgzip\b/.test(accepted)) {
      body = await promisify(gzip)(body, { level: 9 });
      headers["Content-Encoding"] = "gzip";
    }
    if (compressible(type)) headers.Vary = headers.Vary ? `${headers.Vary}, Accept-Encoding` : "Accept-Encoding";
    res.writeHead(status, { ...headers, "Content-Length": String(body.length) });
    res.end(req.method === "HEAD" ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, resolve));
  return {
    url: `http://localhost:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
