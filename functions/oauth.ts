import type { Config } from "@netlify/functions";
import { platformEnv } from "../src/config/env.ts";
import { doorUrl } from "../src/http/door-url.ts";
import { netlifyFunction } from "../src/http/netlify.ts";

// The door is a file of its own in the bundle (scripts/lib/doors.ts): read and parsed on the first request only.
const door = () => import(doorUrl("oauth", import.meta.url)) as Promise<typeof import("../src/oauth/from-env.ts")>;

export default netlifyFunction(async () => (await door()).oauthHandlerFromEnv(platformEnv), platformEnv);

// Every path under /oauth, so that one it does not serve is its not_found (an OAuth error), not the site's page.
export const config: Config = { path: ["/oauth/*"] };
