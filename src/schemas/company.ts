import { z } from "zod";
import { line, prose, slug } from "./common.ts";

const service = z.strictObject({
  id: slug,
  name: line(60),
  summary: prose(300),
});

const exclusion = z.strictObject({
  id: slug,
  name: line(80),
  reason: prose(300),
});

const technology = z.strictObject({
  name: line(40),
  category: line(40),
  used_for: line(120),
});

export const companySchema = z.strictObject({
  /** true while the files describe the fictional sample studio; the site and the JSON say so. */
  sample_content: z.boolean(),
  name: line(60),
  legal_name: line(100),
  tagline: line(120),
  summary: prose(600),
  founded: z.number().int().min(1900).max(2100),
  team_size: z.number().int().positive(),
  location: z.strictObject({
    city: line(60),
    region: line(60),
    country: z.string().regex(/^[A-Z]{2}$/, "use an ISO 3166-1 alpha-2 country code, e.g. US"),
  }),
  languages: z.array(z.string().regex(/^[a-z]{2}$/, "use ISO 639-1 codes, e.g. en")).min(1),
  services: z.array(service).min(1, "list at least one service"),
  not_taken_on: z.array(exclusion).min(1, "say what the studio does not take on"),
  stack: z.array(technology).min(1, "list the technology stack"),
});

export type Company = z.infer<typeof companySchema>;
