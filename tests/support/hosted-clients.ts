import type { ApplicationType } from "../../src/oauth/redirect-uri.ts";

/**
 * The redirect URIs today's hosted and desktop MCP clients register, as their own documentation and bug reports show
 * them (checked November 2026), each with the application type the registration declares or is given.
 */
export interface HostedClient {
  name: string;
  redirect_uris: string[];
  /** What the registration is given when it omits application_type (and what it may declare). */
  application_type: ApplicationType;
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
  // Cursor's desktop deep link (current and earlier), its cloud agents' callback and a loopback listener, in one registration.
  {
    name: "Cursor",
    redirect_uris: [
      "cursor://anysphere.cursor-mcp/oauth/callback",
      "cursor://anysphere.cursor-retrieval/oauth/user-mcp/callback",
      "https://www.cursor.com/agents/mcp/oauth/callback",
      "http://localhost:8787/callback",
    ],
    application_type: "native",
  },
  {
    name: "MCP Inspector",
    redirect_uris: ["http://localhost:6274/oauth/callback", "http://localhost:6274/oauth/callback/debug"],
    application_type: "native",
  },
];
