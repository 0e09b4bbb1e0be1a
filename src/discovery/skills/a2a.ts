import { listPageSize, taskLifetimeSeconds } from "../../a2a/constants.ts";
import { briefExamples, briefSkillId, readSkills } from "../../a2a/skills.ts";
import { bookingScope, bookingSkillIds } from "../../booking/names.ts";
import { perWindow, policies } from "../../limits/policies.ts";

import type { Site } from "../../site/model.ts";

import { confirmationRule, guideReference, skillPrefix, type Skill } from "./common.ts";
import {
  a2aPath,
  a2aRestPath,
  agentCardPath,
  freeTimesPath,
  oauthPaths,
  protectedResourceMetadataPath,
  absolute,
  guidePagePaths,
} from "../../paths.ts";

export function a2aSkill(site: Site): Skill {
  const url = (path: string) => absolute(site.baseUrl, path);
  const quota = policies.a2a;
  const example = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "SendMessage",
    params: { message: { messageId: "m1", role: "ROLE_USER", parts: [{ data: JSON.parse(briefExamples[0]!) }] } },
  });
  return {
    name: `${skillPrefix(site)}-a2a`,
    description: `Talk to ${site.company.name}'s A2A agent at ${url(a2aPath)} (A2A 1.0 JSON-RPC, 0.3 too; HTTP+JSON at ${url(a2aRestPath)}) to get its services, offers, case studies and contact details as data parts, to file a project brief with the ${briefSkillId} skill, and to list the briefs filed with your grant. Use from an A2A client.`,
    body: `# ${site.company.name} over A2A

The agent card is at ${url(agentCardPath)} (signed with a key from ${url(oauthPaths.jwks)}). The agent speaks the JSON-RPC binding at ${url(a2aPath)}; send \`A2A-Version: 1.0\` (without it, the 0.3 method names apply). It also speaks A2A 1.0's HTTP+JSON (REST) binding at ${url(a2aRestPath)} (\`POST ${url(a2aRestPath)}/message:send\`, \`GET ${url(a2aRestPath)}/tasks/{id}\`; send \`A2A-Version: 1.0\`), with errors as google.rpc.Status bodies; both accept \`application/a2a+json\` or \`application/json\`.

## 1. Read (no token)

\`SendMessage\` with a text question, or name a skill in \`metadata.skillId\` or as \`"skill"\` in a data part. Skills: ${readSkills.map((s) => `\`${s.id}\``).join(", ")}. The answer is a message with a data part holding the same JSON as the REST API, and a short text part.

## 2. File a brief with \`${briefSkillId}\`

${confirmationRule}

Get a token (client credentials: ${url(oauthPaths.register)} then ${url(oauthPaths.token)} with \`scope=svc:brief\`), send it as \`Authorization: Bearer\`, and put the brief in a data part with the REST field names:

\`\`\`json
${example}
\`\`\`

Without a token: HTTP 401 with \`WWW-Authenticate: Bearer ... resource_metadata="${url(protectedResourceMetadataPath("a2a"))}"\`; without \`svc:brief\`: 403. Missing or invalid fields put the task in \`input-required\` naming each field: send a follow-up message with the same task id and the fixed fields. A filed brief completes the task with the lead id as an artifact; fetch it again later with \`GetTask\`.

${site.agentBooking ? bookingSection(url) : ""}## 3. Find your earlier tasks

\`ListTasks\` with the same token lists the tasks your grant made (the person's approval of your client, or your client_credentials client; never another person's, even through the same client), newest first, ${listPageSize.default} to a page: send \`nextPageToken\` back as \`pageToken\` until it is empty; it is signed and bound to your grant, so a token from anywhere else is InvalidParams. Filter with \`status\` (\`TASK_STATE_INPUT_REQUIRED\`: briefs waiting for fields), \`contextId\` or \`statusTimestampAfter\`; set \`includeArtifacts: true\` to get the receipts. Without a token: HTTP 401.

## 4. Limits and errors

${quota.quota} requests per ${quota.windowSeconds} seconds per grant with a valid token (the token's \`grant_id\`: each person who approves your client counts apart), per IP address without one (RateLimit headers; HTTP 429 with Retry-After and a JSON-RPC error past it); bodies up to 64 KB. Messages to the brief skill (and to booking and cancelling), valid or not, also count against \`a2a-briefs\`: ${policies["a2a-briefs"].quota} ${perWindow(policies["a2a-briefs"].windowSeconds)} per grant. Tasks are kept ${taskLifetimeSeconds / 3600} hours. Details: ${url(guidePagePaths.a2a)}.
`,
    references: [
      guideReference(
        site,
        "a2a",
        "the developer guide's A2A page: both bindings, every skill, how a skill is chosen, tasks, every error code",
      ),
    ],
  };
}

/** Where agents can book: the intro call's three skills. */
const bookingSection = (url: (path: string) => string) => {
  const { freeTimes, book, cancel } = bookingSkillIds;
  return `## 2b. Book the intro call

After a brief (or without one), when the person asks for a call: \`${freeTimes}\` (no token; a data part with \`time_zone\`, optional \`from\` and \`to\`) answers the free times as GET ${url(freeTimesPath)} does; offer a few, and book the one the person chose and confirmed with \`${book}\` (the same token as the brief: ${bookingScope}), its data part the REST booking fields with the brief's \`lead_id\`. A time taken meanwhile puts the task in \`input-required\` with fresh \`free_times\`: reply in the task with another \`start\`. \`${cancel}\` with the \`booking_id\` cancels; only the grant that booked sees or cancels it. Both are chosen by name only. Details: ${url(guidePagePaths.booking)}.

`;
};
