import { z } from "zod";
import { line, prose, slug } from "./common.ts";

export const resultSchema = z
  .strictObject({
    metric: line(80),
    before: z.number().nonnegative(),
    after: z.number().nonnegative(),
    unit: line(20),
    /** Which way is an improvement; decides how the result is phrased and drawn. */
    better: z.enum(["lower", "higher"]),
    period: line(160),
    method: prose(300),
  })
  .refine((r) => r.before !== r.after, { message: "before and after are equal: that is not a result", path: ["after"] });

export const caseStudySchema = z.strictObject({
  title: line(100),
  summary: line(200),
  client: z.strictObject({
    name: line(80),
    industry: line(60),
    location: line(80),
  }),
  published: z.coerce.date({ error: "must be a date such as 2026-03-14" }),
  launched: z.coerce.date({ error: "must be a date such as 2026-03-14" }),
  offer: slug,
  services: z.array(slug).min(1),
  stack: z.array(line(40)).min(1),
  timeline_weeks: z.number().int().positive(),
  problem: prose(800),
  built: z.array(line(200)).min(1, "say what was built"),
  results: z.array(resultSchema).min(1, "a case study needs at least one measured result"),
});

export type CaseStudy = z.infer<typeof caseStudySchema>;
export type Result = z.infer<typeof resultSchema>;
