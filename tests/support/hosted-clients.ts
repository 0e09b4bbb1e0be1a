import type { ApplicationType } from "../../src/oauth/redirect-uri.ts";

/**
 * The redirect URIs today's hosted and desktop MCP clients register, as their own documentation and bug reports show
 * them (checked November 2026), each with the application type the registration declares or is given, or the redirect
 * URI this server refuses it for.
 */
export interface HostedClient {
  name: string;
  redirect_uris: string[];
  /** What the registration is given when it omits application_type (and what it may declare). */
  application_type: ApplicationType;
  /**
   * Set when the registration as the client sends it is refused (invalid_redirect_uri): the first redirect URI refused,
   * and the same registration with what the client would need instead, which is accepted.
   */
  refused?: { uri: string; needs: string[] };
}

export const hostedClients: HostedClient[] = [
  // ChatGPT connectors (apps and developer mode) since 2025; the plugin-era callback had a per-plugin path.
  {
    name: "ChatGPT",
    redirect_uris: ["https://chatgpt.com/connector_platform_oauth_redirect"],
    application_type: "web",
  },
  { name: "ChatGPT (plugin era)", redirect_uris: ["https://chat.openai.com/aip/plugin-0123abcd/oauth/callback"], application_type: "web" },
  {
    name: "Claude",
    redirect_uris: ["https://claude.ai/api/mcp/auth_callback", "https://claude.com/api/mcp/auth_callback"],
    application_type: "web",
  },
  // VS Code registers its web redirects and its loopback listener (default port 33418, any port at run time).
  {
    name: "VS Code",
    redirect_uris: ["https://insiders.vscode.dev/redirect", "https://vscode.dev/redirect", "http://127.0.0.1/", "http://127.0.0.1:33418/"],
    application_type: "web",
  },
  { name: "VS Code (loopback only)", redirect_uris: ["http://127.0.0.1:33418"], application_type: "native" },
  // Cursor's desktop deep link (current and earlier), its cloud agents' callback and a loopback listener, in one
  // registration. Refused: `cursor:` is a private-use scheme without a period, not a reversed domain name (RFC 8252
  // §8.4; docs/decisions.md, "Private-use redirect URI schemes are reversed domain names, never the system's").
  // What it would need: its deep link under a reversed domain name it controls (`com.cursor:` here, for illustration:
  // Cursor does not register one), or only its https callback and its loopback listener.
  {
    name: "Cursor",
    redirect_uris: [
      "cursor://anysphere.cursor-mcp/oauth/callback",
      "cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback",
      "https://www.cursor.com/agents/mcp/oauth/callback",
      "http://localhost:8787/callback",
    ],
    application_type: "native",
    refused: {
      uri: "cursor://anysphere.cursor-mcp/oauth/callback",
      needs: [
        "com.cursor://anysphere.cursor-mcp/oauth/callback",
        "com.cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback",
        "https://www.cursor.com/agents/mcp/oauth/callback",
        "http://localhost:8787/callback",
      ],
    },
  },
  {
    name: "MCP Inspector",
    redirect_uris: ["http://localhost:6274/oauth/callback", "http://localhost:6274/oauth/callback/debug"],
    application_type: "native",
  },
];
