import type { APIRoute, GetStaticPaths } from "astro";
import { caseStudyResource } from "../../../../resources/case-studies.ts";
import { jsonResponse } from "../../../../resources/json.ts";
import { loadSite } from "../../../../site/load.ts";

export const getStaticPaths = (async () => {
  const site = await loadSite();
  return site.caseStudies.map((study) => ({ params: { id: study.id }, props: { body: caseStudyResource(site, study) } }));
}) satisfies GetStaticPaths;

export const GET: APIRoute = ({ props }) => jsonResponse(props.body);
