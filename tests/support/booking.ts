/** What the tests of the intro call share: free times and a booking as clients read them, and a person to book for. */
export type { FreeTimes } from "../../src/booking/free-times.ts";

export interface BookingView {
  booking_id: string;
  status: string;
  start: string;
  time_zone: string;
  lead_id?: string;
  next_steps?: string;
}

/** The booking fields for a person nobody has booked for yet, at `start`, in London. */
export const person = (start: string, extra: Record<string, unknown> = {}) => ({
  full_name: "Ada Lovelace",
  work_email: `ada.${crypto.randomUUID().slice(0, 8)}@engines.example`,
  start,
  time_zone: "Europe/London",
  ...extra,
});
