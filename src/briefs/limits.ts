/** The largest brief request body accepted, in bytes. */
export const maxBriefBytes = 32 * 1024;

export const idempotencyKeyMaxLength = 255;
/** An Idempotency-Key: 1 to idempotencyKeyMaxLength visible ASCII characters (spaces allowed after the first). */
export const idempotencyKeyPattern = new RegExp(`^[\\x21-\\x7E][\\x20-\\x7E]{0,${idempotencyKeyMaxLength - 1}}$`);
