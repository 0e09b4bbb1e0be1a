import { identify, requireToken, type Verifier } from "../http/bearer.ts";
import { jsonObject, readJson } from "../http/body.ts";
import type { Handler } from "../http/context.ts";
import { door, handlerOf } from "../http/door.ts";
import { problemJson } from "../http/formats.ts";
import { Refusal } from "../http/refusal.ts";
import { bookingsPath, freeTimesPath } from "../paths.ts";
import { fieldErrorsOf } from "../briefs/validate.ts";
import { bookCall, cancelOwnBooking, ownBooking, bookingView, type BookingDeps } from "./book.ts";
import { daysOf, freeTimes } from "./free-times.ts";
import { bookingOutcomeOf, invalidQuery } from "./outcome.ts";
import { freeTimesQuerySchema } from "./schema.ts";
import { freeStartsTtlSeconds } from "./store.ts";

export interface BookingHandlerDeps {
  baseUrl: string;
  verifier: Verifier;
  /** Undefined where no Cal.com event type is configured: every route answers booking_not_offered. */
  booking: BookingDeps | undefined;
  studio: string;
}

const maxBookingBytes = 8 * 1024;
const noStore = { "Cache-Control": "no-store" };

/**
 * The intro call under /api/v1, behind the /api gateway (which counts the request and checks the method): free times (a
 * public read), a booking (svc:brief, as a brief), the grant's own booking, and its cancellation.
 */
export function createBookingHandler({ baseUrl, verifier, booking, studio }: BookingHandlerDeps): Handler {
  const app = door(problemJson(baseUrl));
  const where = { baseUrl, resource: "origin" } as const;
  const offered = (): BookingDeps => {
    if (!booking) throw new Refusal("booking_not_offered");
    return booking;
  };
  app.use(identify(verifier));

  app.get(freeTimesPath, async (c) => {
    const deps = offered();
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const parsed = freeTimesQuerySchema.safeParse(query);
    if (!parsed.success) throw invalidQuery(fieldErrorsOf(parsed.error, query, "free-times query"));
    const days = daysOf(parsed.data, deps);
    if ("errors" in days) throw invalidQuery(days.errors ?? []);
    return Response.json(await freeTimes(days, deps), { headers: { "Cache-Control": `public, max-age=${freeStartsTtlSeconds}` } });
  });

  app.post(bookingsPath, async (c) => {
    const deps = offered();
    const caller = requireToken(c, { ...where, scopes: ["svc:brief"] });
    const body = jsonObject(await readJson(c.req.raw, { limit: maxBookingBytes, refuseAs: { wrongType: "invalid_json" } }));
    const result = await bookCall(
      { body, owner: caller.grantId, address: c.env.ip, idempotencyKey: c.req.header("idempotency-key") },
      deps,
    );
    const outcome = bookingOutcomeOf(result, { studio });
    if (outcome instanceof Refusal) throw outcome;
    if (outcome.kind === "dry_run") return Response.json(outcome.result, { headers: noStore });
    const headers = outcome.kind === "replayed" ? { ...noStore, "Idempotent-Replayed": "true" } : noStore;
    return Response.json(outcome.booking, { status: 201, headers });
  });

  app.get(`${bookingsPath}/:id`, async (c) => {
    const deps = offered();
    const caller = requireToken(c, { ...where, scopes: ["svc:read"] });
    const found = await ownBooking(c.req.param("id"), caller.grantId, deps);
    if (!found) throw notFound();
    return Response.json(bookingView(found), { headers: noStore });
  });

  app.post(`${bookingsPath}/:id/cancel`, async (c) => {
    const deps = offered();
    const caller = requireToken(c, { ...where, scopes: ["svc:brief"] });
    const cancelled = await cancelOwnBooking(c.req.param("id"), caller.grantId, deps);
    if (!cancelled) throw notFound();
    return Response.json(bookingView(cancelled), { headers: noStore });
  });
  return handlerOf(app);
}

/** Another grant's booking and none at all are the same answer. */
const notFound = () =>
  new Refusal("not_found", { detail: "This grant has no booking of that id.", resolution: "Use a booking_id your own booking returned." });
