import { pipelineFromEnv } from "../briefs/config.ts";
import { briefServices } from "../operations/briefs.ts";
import type { Env } from "../config/env.ts";
import { settingsFrom } from "../config/settings.ts";
import { builtOnFirstUse } from "../http/door.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { pageShell } from "../site/page-shell.ts";
import { redisFromEnv } from "../store/node-requester.ts";
import { contactFields } from "../briefs/form-fields.ts";
import { createContactHandler, maxFormBytes } from "./handler.ts";
import { contactPages } from "./pages.ts";

/** POST /contact wired to the deployment, once per function instance; a misconfiguration answers its page. */
export function contactHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const settings = settingsFrom(env);
  const email = prebuilt.contact.email;
  return builtOnFirstUse(
    async () =>
      createContactHandler({
        baseUrl: settings.required("URL"),
        shell: pageShell(),
        fields: contactFields(prebuilt.offers.site_sizes),
        briefs: briefServices(pipelineFromEnv(settings, prebuilt), {
          studio: prebuilt.site.name,
          responseTime: prebuilt.site.response_time,
        }),
        limiter: upstashLimiter(redisFromEnv(settings)),
        contact: { email, confirmation: prebuilt.site.contact_confirmation },
      }),
    contactPages({ shell: pageShell(), email, maxFormBytes }),
  );
}
