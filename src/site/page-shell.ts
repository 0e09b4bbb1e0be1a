import yaml from "js-yaml";
import companyYaml from "../../content/company.yaml" with { type: "text" };
import { companySchema } from "../schemas/company.ts";
import stylesheet from "../styles/site.css" with { type: "text" };
import type { PageShell } from "./function-page.ts";

/**
 * The consent screen's surroundings, taken from the same files as the static site at bundle time: the studio's name
 * from content/company.yaml (checked by the same schema as the build) and src/styles/site.css, imported as text
 * (esbuild, which bundles the functions, supports `with { type: "text" }`; vitest gets it from vitest.config.ts).
 */
export const pageShell = (): PageShell => ({ studioName: companySchema.parse(yaml.load(companyYaml)).name, stylesheet });
