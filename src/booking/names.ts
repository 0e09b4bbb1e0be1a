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

/** The scope booking and cancelling need: a booking contacts a person, exactly as a brief does. */
export const bookingScope = "svc:brief";
