import { identify, requireToken, type Verifier } from "../http/bearer.ts";
import { jsonObject, readJson } from "../http/body.ts";
import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { quotaReport } from "../limits/headers.ts";
import { usageHeaders } from "../discovery/policy.ts";
import { bookingsPath, freeTimesPath } from "../paths.ts";
import { bookIntroCall, cancelIntroCall, listFreeTimes, readBooking, type BookingServices } from "../operations/booking.ts";
import { anyone, callerOf, invalidInput, perform } from "../operations/operation.ts";
import { freeStartsTtlSeconds } from "../booking/store.ts";

export interface BookingHandlerDeps {
  baseUrl: string;
  verifier: Verifier;
  /** Booking as the deployment runs it; without Cal.com, every route answers booking_not_offered. */
  booking: BookingServices;
}

const maxBookingBytes = 8 * 1024;
const noStore = { "Cache-Control": "no-store" };

/**
 * The intro call under /api/v1, behind the /api gateway (which counts the request and checks the method): free times (a
 * public read), a booking (svc:brief, as a brief), the grant's own booking, and its cancellation.
 */
export function createBookingHandler({ baseUrl, verifier, booking: services }: BookingHandlerDeps): Handler {
  const app = door(problemJson(baseUrl));
  const where = { baseUrl, resource: "origin" } as const;
  app.use(identify(verifier));
  // Where Cal.com is not configured, every route answers booking_not_offered, before anything else is asked.
  app.use(async (_, next) => {
    await bookIntroCall.ready(services);
    await next();
  });

  app.get(freeTimesPath, async (c) => {
    const query = queryOf(new URL(c.req.url).searchParams);
    // Published content, as every /api read: how it may be used goes with it.
    return Response.json(await perform(listFreeTimes, query, { caller: anyone, channel: "rest", services }), {
      headers: { "Cache-Control": `public, max-age=${freeStartsTtlSeconds}`, ...Object.fromEntries(usageHeaders) },
    });
  });

  app.post(bookingsPath, async (c) => {
    const caller = callerOf(requireToken(c, { ...where, scopes: [bookIntroCall.scope] }));
    const body = jsonObject(await readJson(c.req.raw, { limit: maxBookingBytes, refuseAs: { wrongType: "invalid_json" } }));
    const outcome = await perform(bookIntroCall, body, {
      caller,
      idempotencyKey: c.req.header("idempotency-key"),
      channel: "rest",
      services,
    });
    if (outcome.kind === "dry_run") return Response.json(outcome.result, { headers: noStore });
    const location = `${baseUrl}${bookingsPath}/${outcome.booking.booking_id}`;
    const replayed: Record<string, string> = outcome.kind === "replayed" ? { "Idempotent-Replayed": "true" } : {};
    // A new booking reports the booking quotas it counted against, beside the gateway's own.
    const quota = outcome.counted ? quotaReport(outcome.counted) : {};
    return Response.json(outcome.booking, { status: 201, headers: { ...noStore, ...quota, Location: location, ...replayed } });
  });

  app.get(`${bookingsPath}/:id`, async (c) => {
    const caller = callerOf(requireToken(c, { ...where, scopes: ["svc:read"] }));
    return Response.json(await readBooking(c.req.param("id"), caller, services), { headers: noStore });
  });

  app.post(`${bookingsPath}/:id/cancel`, async (c) => {
    const caller = callerOf(requireToken(c, { ...where, scopes: [cancelIntroCall.scope] }));
    // The /api gateway's route table answers 404 for a path whose id no booking can have (src/api/routes.ts).
    const input = { booking_id: c.req.param("id") };
    return Response.json(await perform(cancelIntroCall, input, { caller, channel: "rest", services }), { headers: noStore });
  });
  return handlerOf(app);
}

/** The query's parameters; one given twice is refused, never read as its first or last value. */
function queryOf(params: URLSearchParams): Record<string, string> {
  const twice = [...new Set(params.keys())].filter((name) => params.getAll(name).length > 1);
  if (twice.length > 0)
    throw invalidInput(
      "invalid_query",
      twice.map((name) => ({
        field: `/${name}`,
        code: "invalid_value",
        message: `${name} must be given once, not ${params.getAll(name).length} times`,
      })),
    );
  return Object.fromEntries(params);
}
