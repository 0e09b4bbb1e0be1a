import { z } from "zod";
import { httpsUrl, line, prose } from "./common.ts";
import { timeZone } from "./time-zone.ts";

export const weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"] as const;
const clock = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "use a 24-hour time such as 09:00");

export const contactSchema = z.strictObject({
  email: z.email("must be an e-mail address"),
  booking: z.strictObject({
    url: httpsUrl,
    label: line(60),
    duration_minutes: z.number().int().positive().max(240),
  }),
  response_time: line(80),
  hours: z
    .strictObject({
      time_zone: timeZone,
      summary: line(80),
      days: z.array(z.enum(weekdays, { error: `use ${weekdays.join(", ")}` })).min(1, "name at least one day"),
      opens: clock,
      closes: clock,
    })
    .refine((hours) => hours.opens < hours.closes, { error: "opens must be before closes", path: ["closes"] }),
  form: z.strictObject({
    intro: prose(400),
    confirmation: prose(400),
  }),
});

export type Contact = z.infer<typeof contactSchema>;
