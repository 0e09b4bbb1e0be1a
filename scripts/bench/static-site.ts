import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import { parse } from "smol-toml";

/**
 * dist/ served the way Netlify's CDN serves it, for measuring pages without the local emulator's per-request cost:
 * pretty URLs (/offers is offers.html), 404.html with status 404, the headers of netlify.toml and dist/_headers, and
 * Brotli or gzip for text when the client accepts it. Not a general server: only what the pages bench needs.
 */
export interface StaticSite {
  url: string;
  close(): Promise<void>;
}

type HeaderRule = { pattern: RegExp; headers: [string, string][] };

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

/** A Netlify header path (`/*` splats, exact paths otherwise) as a regular expression. */
const pathPattern = (path: string) => new RegExp(`^${path.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*")}$`);

/** The `_headers` file format: a path at the start of a line, then indented `Name: value` lines. */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim() || line.trim().startsWith("#")) continue;
    if (!/^\s/.test(line)) rules.push({ pattern: pathPattern(line.trim()), headers: [] });
    else {
      const at = line.indexOf(":");
      rules.at(-1)?.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return rules;
}

function tomlRules(toml: string): HeaderRule[] {
  const config = parse(toml) as { headers?: { for: string; values: Record<string, string> }[] };
  return (config.headers ?? []).map((h) => ({ pattern: pathPattern(h.for), headers: Object.entries(h.values) }));
}

const compressible = (type: string) => /^(text\/|application\/(json|javascript|xml)|image\/svg)/.test(type);

export async function serveStaticSite(root: string): Promise<StaticSite> {
  const dist = join(root, "dist");
  const rules = [
    ...tomlRules(await readFile(join(root, "netlify.toml"), "utf8")),
    ...parseHeadersFile(await readFile(join(dist, "_headers"), "utf8")),
  ];
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
    if (status === 200) for (const rule of rules) if (rule.pattern.test(pathname)) for (const [n, v] of rule.headers) headers[n] = v;
    const accepted = String(req.headers["accept-encoding"] ?? "");
    if (compressible(type) && /\bbr\b/.test(accepted)) {
      body = await promisify(brotliCompress)(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
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
