/** The largest brief request body accepted, in bytes. */
export const maxBriefBytes = 32 * 1024;

/** An Idempotency-Key: 1 to 255 visible ASCII characters (spaces allowed after the first). */
export const idempotencyKeyPattern = /^[\x21-\x7E][\x20-\x7E]{0,254}$/;
