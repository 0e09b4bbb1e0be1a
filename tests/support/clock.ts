/**
 * The clock of an in-process test: `Date` (both `Date.now()` and `new Date()`) reads the real time shifted by an offset
 * the test moves, so a quota's fixed windows (`@upstash/ratelimit` counts per `floor(Date.now() / window)`) can be
 * started or crossed without waiting.
 *
 * It runs at real speed and only ever moves forward. Redis expires keys in real time, and a window's counter expires one
 * window length after its first count: a clock that ran slower than real time, or stood still, would outlive its own
 * counters and see a window reset in the middle. The local store in this process expires keys by `Date.now()`, so on it
 * a jump forward also expires what the jump crosses; real Redis does not see the jump.
 *
 * Install it before building what reads the time: a factory that captures `Date.now` as its default keeps the function
 * it captured.
 */
export interface TestClock {
  now(): number;
  /**
   * Moves to the start of the next window of `seconds` (aligned to the epoch, as fixed windows are): one millisecond
   * past it, since @upstash/ratelimit's cache of blocked clients holds them until the reset instant inclusive.
   */
  toNextWindow(seconds: number): number;
  /** Moves forward by `ms`. */
  advance(ms: number): number;
  /** Puts the real `Date` back. */
  restore(): void;
}

const RealDate = Date;

export function installClock(): TestClock {
  let offset = 0;
  const now = () => RealDate.now() + offset;

  // A subclass, so that dates made before or after are the same kind of value (instanceof holds both ways).
  class ClockDate extends RealDate {
    constructor(...args: ConstructorParameters<typeof Date> | []) {
      if (args.length === 0) super(now());
      else super(...(args as ConstructorParameters<typeof Date>));
    }
    static override now = now;
    static override [Symbol.hasInstance](value: unknown) {
      return value instanceof RealDate;
    }
  }
  // Called without `new`, Date gives the current time as a string.
  const ClockDateFunction = new Proxy(ClockDate, {
    apply: () => new RealDate(now()).toString(),
  });
  globalThis.Date = ClockDateFunction as unknown as DateConstructor;

  const forward = (ms: number) => {
    if (ms < 0) throw new Error("the test clock only moves forward");
    offset += ms;
    return now();
  };
  return {
    now,
    toNextWindow: (seconds) => forward(seconds * 1000 - (now() % (seconds * 1000)) + 1),
    advance: forward,
    restore: () => {
      globalThis.Date = RealDate;
    },
  };
}
