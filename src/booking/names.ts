/**
 * What booking is called at each door, named once: the contact resource, the pages and the developer guide point at
 * them, and the MCP tools and A2A skills are registered under them.
 */
export const bookingToolNames = {
  freeTimes: "list_free_times",
  book: "book_intro_call",
  cancel: "cancel_intro_call",
} as const;

export const bookingSkillIds = {
  freeTimes: "free-times",
  book: "svc-book-intro-call",
  cancel: "svc-cancel-intro-call",
} as const;

/**
 * Whether the build offers booking to agents: exactly where the contact resource tells them they can book. Every door
 * offers its booking tools and skills by this, and the functions check their own Cal.com against it.
 */
export const bookingOfferedIn = (prebuilt: { contact: { booking: { agents?: unknown } } }) => prebuilt.contact.booking.agents !== undefined;

/** The scope booking and cancelling need: a booking contacts a person, exactly as a brief does. */
export const bookingScope = "svc:brief";
