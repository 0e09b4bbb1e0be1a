import { z } from "zod";
import { canonicalTimeZone, isTimeZone } from "../booking/zoned-time.ts";

/**
 * The one time-zone field: the studio's hours in content/contact.yaml, a brief's and a booking's time_zone, and the
 * free-times query. It takes every zone name the runtime knows (America/Argentina/Buenos_Aires, America/Port-au-Prince,
 * UTC, in any case, and the names ICU still keeps) and answers it as `canonicalTimeZone` spells it, so one zone has one
 * name everywhere: in answers, in the free-times cache and in the built site.
 */
export const timeZone = z
  .string({ error: "time_zone must be a string" })
  .refine(isTimeZone, "time_zone must be an IANA time zone such as Europe/Berlin, or UTC")
  .transform((zone) => canonicalTimeZone(zone)!);
