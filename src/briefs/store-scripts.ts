/**
 * The lead store's multi-step writes that depend on what is stored, as Lua scripts: Redis runs each one atomically, so
 * no crash or concurrent request sees half of one.
 */

/**
 * Records a new lead and decides, in the same step, whether it is e-mailed or held.
 * KEYS: lead:<id>, leads, leads:due, leads:held, leads:emailed:<day>, leads:alert:<day>
 * ARGV: id, received (ms), daily limit, counter lifetime (s), the lead as pending, the lead as held, the day's alert
 * Returns 0 (due), 1 (held), 2 (held, and the day's alert is now owed).
 */
export const insertScript = `
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local emailed = tonumber(redis.call('GET', KEYS[5]) or '0')
if emailed < tonumber(ARGV[3]) then
  redis.call('INCR', KEYS[5])
  redis.call('EXPIRE', KEYS[5], ARGV[4])
  redis.call('SET', KEYS[1], ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  return 0
end
redis.call('SET', KEYS[1], ARGV[6])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
if redis.call('SET', KEYS[6], ARGV[7], 'NX') then
  redis.call('ZADD', KEYS[3], ARGV[2], KEYS[6])
  return 2
end
return 1
`;

/**
 * Moves a held lead into the delivery queue, only if it is still held: two releases never both reset it.
 * KEYS: lead:<id>, leads:held, leads:due
 * ARGV: id, the lead as pending, when it is due (ms)
 * Returns 1 when released, 0 when it was not held.
 */
export const releaseScript = `
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
return 1
`;
