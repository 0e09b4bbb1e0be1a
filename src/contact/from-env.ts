import { pipelineFromEnv, isLocal } from "../briefs/config.ts";
import { type Env } from "../config/env.ts";
import { baseUrlFrom } from "../config/env.ts";
import { upstashLimiter } from "../limits/limiter.ts";
import type { PrebuiltResources } from "../resources/prebuilt.ts";
import { pageShell } from "../site/page-shell.ts";
import { redisFromEnv } from "../store/redis.ts";
import { contactFields } from "./fields.ts";
import { createContactHandler } from "./handler.ts";

/** POST /contact wired to the deployment, once per function instance. */
export function contactHandlerFromEnv(env: Env, prebuilt: PrebuiltResources) {
  let handler: ReturnType<typeof createContactHandler> | undefined;
  return (request: Request, context: { ip: string; background?: (work: Promise<unknown>) => void }) => {
    handler ??= createContactHandler({
      baseUrl: baseUrlFrom(env),
      shell: pageShell(),
      fields: contactFields(prebuilt.offers.site_sizes),
      pipeline: pipelineFromEnv(env, prebuilt),
      limiter: upstashLimiter(redisFromEnv(env), { cacheBlocked: !isLocal(env) }),
      contact: {
        email: prebuilt.contact.email,
        confirmation: prebuilt.site.contact_confirmation,
        responseTime: prebuilt.site.response_time,
      },
    });
    return handler(request, context);
  };
}
