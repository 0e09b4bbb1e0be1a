import { z } from "zod";
import { httpsUrl, line, prose } from "./common.ts";

export const contactSchema = z.strictObject({
  email: z.email("must be an e-mail address"),
  booking: z.strictObject({
    url: httpsUrl,
    label: line(60),
    duration_minutes: z.number().int().positive().max(240),
  }),
  response_time: line(80),
  hours: z.strictObject({
    time_zone: z.string().regex(/^[A-Za-z_]+\/[A-Za-z_]+$/, "use an IANA time zone, e.g. America/Los_Angeles"),
    summary: line(80),
  }),
  form: z.strictObject({
    intro: prose(400),
    confirmation: prose(400),
  }),
});

export type Contact = z.infer<typeof contactSchema>;
