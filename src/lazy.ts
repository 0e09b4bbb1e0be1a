/**
 * A value made on first use and kept: the deployment's services, a door, its SDK. What failed to be made is not kept,
 * a thrown error or a rejected promise alike, so the next use tries again (a variable fixed, a store back).
 */
export function lazy<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => {
    if (made) return made.value;
    const value = make();
    const kept = { value };
    made = kept;
    if (value instanceof Promise)
      value.catch(() => {
        if (made === kept) made = undefined;
      });
    return value;
  };
}
