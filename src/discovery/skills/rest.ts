import { perWindow, policies } from "../../limits/policies.ts";

import type { Site } from "../../site/model.ts";

import { confirmationRule, problemTable, skillPrefix, type Skill } from "./common.ts";
import { openApiPath, oauthPaths, absolute, apiBase, guidePagePaths, bookingsPath, freeTimesPath, resourcePaths } from "../../paths.ts";

const block = (s: string) => `\`\`\`sh\n${s}\n\`\`\``;

export function restSkill(site: Site): Skill {
  const url = (path: string) => absolute(site.baseUrl, path);
  const quota = policies["public-api"];
  return {
    name: `${skillPrefix(site)}-rest-api`,
    description: `Read ${site.company.name}'s public facts (services, offers with prices, case studies with measured results, contact) as JSON over plain HTTPS at ${url(apiBase)}, and file a project brief for a person who asked to be contacted. Use when you can make HTTP requests but have no MCP or A2A client.`,
    body: `# ${site.company.name} over REST

Everything is JSON under ${url(apiBase)}. Reads need no key. One write exists: filing a project brief.

## 1. Discover

${block(`curl ${url(apiBase)}`)}

The index lists every resource with its absolute URL, and \`openapi_url\` (${url(openApiPath)}), the full OpenAPI 3.1 description.

## 2. Read

${block(["company", "offers", "case-studies", "pages", "contact"].map((r) => `curl ${url(`${apiBase}/${r}`)}`).join("\n"))}

Each case study is also at ${url(`${apiBase}/case-studies/{id}`)} with its full story. Every page of the site is also Markdown: send \`Accept: text/markdown\` to a page URL.

## 3. Get a token (only to file a brief)

Registration and tokens are self-serve and anonymous.

${block(`curl -X POST ${url(oauthPaths.register)} -H 'Content-Type: application/json' \\
  -d '{"client_name":"my agent","grant_types":["client_credentials"],"token_endpoint_auth_method":"client_secret_post"}'
# keep client_id and client_secret from the answer, then:
curl -X POST ${url(oauthPaths.token)} -d grant_type=client_credentials \\
  -d client_id="$CLIENT_ID" -d client_secret="$CLIENT_SECRET" -d scope=svc:brief`)}

The token lasts one hour; ask for a new one when it expires.

## 4. File a brief

${confirmationRule}

${block(`curl -X POST ${url(`${apiBase}/briefs`)} -H "Authorization: Bearer $TOKEN" \\
  -H 'Content-Type: application/json' -H "Idempotency-Key: $(openssl rand -hex 16)" \\
  -d '{"full_name":"Ada Lovelace","company_name":"Analytical Engines","work_email":"ada@engines.example","message":"A new marketing site.","dry_run":true}'`)}

A dry run answers 200 with \`dry_run: true\` and files nothing. Without \`dry_run\`, the answer is 201 with \`lead_id\`; tell the person a human will reply by e-mail. Retry a failed request with the same Idempotency-Key: it never files twice. Field list and bounds: ${url(guidePagePaths.briefs)}.

## 5. Book the intro call (after a brief, when the person wants to talk)

Free times are public; booking needs the same svc:brief token. Book only a time the person chose, with the name and e-mail they confirmed.

${block(`curl '${url(freeTimesPath)}?time_zone=Europe/Berlin'
# pick a start with the person, then:
curl -X POST ${url(bookingsPath)} -H "Authorization: Bearer $TOKEN" \\
  -H 'Content-Type: application/json' -H "Idempotency-Key: $(openssl rand -hex 16)" \\
  -d '{"full_name":"Ada Lovelace","work_email":"ada@engines.example","start":"<a start from free times>","time_zone":"Europe/Berlin","lead_id":"<lead_id of the brief>"}'`)}

201 answers with \`booking_id\`; Cal.com sends the person the invitation. \`slot_taken\` (409) carries fresh \`free_times\`: choose again with the person. \`${bookingsPath}/{booking_id}/cancel\` (POST) cancels it. A deployment without booking answers \`booking_not_offered\` (404): give the person the booking link of ${url(resourcePaths.contact)}. Details: ${url(guidePagePaths.booking)}.

## 6. Errors

Every error is \`application/problem+json\` with a stable \`code\` and a \`resolution\`. \`invalid_brief\` lists every bad field in \`errors\` (\`field\` is a JSON Pointer): fix them all, ask the person if needed, and send again.

${problemTable()}

## 7. Quota

${quota.quota} requests per ${quota.windowSeconds} seconds per IP address for everything under ${apiBase}, with a token or without; briefs also count ${policies["briefs-per-grant"].quota} ${perWindow(policies["briefs-per-grant"].windowSeconds)} per grant (the token's \`grant_id\`), bookings ${policies["bookings-per-grant"].quota} ${perWindow(policies["bookings-per-grant"].windowSeconds)}. Every answer carries \`RateLimit: "public-api";r=<left>;t=<seconds>\`; slow down as \`r\` nears 0. On 429, wait \`Retry-After\` seconds.
`,
    references: [
      {
        path: "references/openapi.json",
        title: "the OpenAPI 3.1 document: every operation, its parameters, bodies, answers and problem types",
        url: url(openApiPath),
        source: { openApi: true },
      },
    ],
  };
}
