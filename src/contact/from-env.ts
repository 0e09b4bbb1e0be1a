import type { Env } from "../config/env.ts";
import { deployment, writes } from "../deployment.ts";
import { contactFields } from "../briefs/form-fields.ts";
import { builtOnFirstUse } from "../http/door.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { pageShell } from "../site/page-shell.ts";
import { createContactHandler, maxFormBytes } from "./handler.ts";
import { contactPages } from "./pages.ts";

/** POST /contact wired to the deployment (src/deployment.ts), once per function instance; a misconfiguration answers its page. */
export function contactHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  const d = deployment(env);
  const { briefs } = writes(d, prebuilt);
  const email = prebuilt.contact.email;
  return builtOnFirstUse(
    async () =>
      createContactHandler({
        baseUrl: d.baseUrl(),
        shell: pageShell(),
        fields: contactFields(prebuilt.offers.site_sizes),
        briefs: briefs(),
        limiter: d.limiter(),
        contact: { email, confirmation: prebuilt.site.contact_confirmation },
      }),
    contactPages({ shell: pageShell(), email, maxFormBytes }),
  );
}
