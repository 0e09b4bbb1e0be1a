import type { CallNotice } from "../../src/briefs/call-notice.ts";

/** An intro call booked for `lead_id`, still owed: 17:00 UTC on 1 December 2026, for a person in London and a studio in Los Angeles. */
export const callNoticeFor = (lead_id: string): CallNotice => ({
  booking_id: "bk_0123456789abcdefghjk",
  lead_id,
  created_at: "2026-11-23T10:00:00.000Z",
  start: "2026-12-01T17:00:00.000Z",
  end: "2026-12-01T17:30:00.000Z",
  time_zone: "Europe/London",
  studio_time_zone: "America/Los_Angeles",
  delivery: { state: "pending", attempts: 0 },
});
