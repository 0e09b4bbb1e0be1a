/**
 * The lead store's multi-step writes that depend on what is stored, as Lua scripts: Redis runs each one atomically, so
 * no crash or concurrent request sees half of one.
 */

/**
 * Records a new lead and decides, in the same step, whether it is e-mailed or held: held once the day has e-mailed its
 * limit, or the lead's address its share, or its owner its share (src/briefs/held.ts), checked in that order; the
 * first reason that applies is the kind of hold. The first lead a UTC day held for each kind claims that kind's alert
 * (`SET NX`) and queues it, so each kind is alerted exactly once a day however many filings race: at most three alerts.
 * KEYS: lead:<id>, leads, leads:due, leads:held, leads:emailed:<day>, leads:emailed:<day>:sources,
 *       leads:held:<day>:sources, then the day's alert for each kind: leads:alert:<day>:day, :address, :owner
 * ARGV: id, received (ms), daily limit, address share, owner share, e-mailed counts' lifetime (s), held counts' lifetime
 *       (s), the lead's address field, its owner field, the lead as pending, the lead as held, then the alert should the
 *       lead be held by the day's limit, by the address's share, by the owner's share
 * Returns 0 (due), 1 (held), or 2 + the kind (0 the day, 1 the address, 2 the owner: held, and that kind's alert is now
 * owed).
 */
export const insertScript = `
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
local emailed = tonumber(redis.call('GET', KEYS[5]) or '0')
local shares = redis.call('HMGET', KEYS[6], ARGV[8], ARGV[9])
local kind
if emailed >= tonumber(ARGV[3]) then kind = 0
elseif tonumber(shares[1] or '0') >= tonumber(ARGV[4]) then kind = 1
elseif tonumber(shares[2] or '0') >= tonumber(ARGV[5]) then kind = 2
else
  redis.call('INCR', KEYS[5])
  redis.call('EXPIRE', KEYS[5], ARGV[6])
  redis.call('HINCRBY', KEYS[6], ARGV[8], 1)
  redis.call('HINCRBY', KEYS[6], ARGV[9], 1)
  redis.call('EXPIRE', KEYS[6], ARGV[6])
  redis.call('SET', KEYS[1], ARGV[10])
  redis.call('ZADD', KEYS[3], ARGV[2], ARGV[1])
  return 0
end
redis.call('SET', KEYS[1], ARGV[11])
redis.call('ZADD', KEYS[4], ARGV[2], ARGV[1])
redis.call('HINCRBY', KEYS[7], ARGV[8], 1)
redis.call('HINCRBY', KEYS[7], ARGV[9], 1)
redis.call('EXPIRE', KEYS[7], ARGV[7])
if redis.call('SET', KEYS[8 + kind], ARGV[12 + kind], 'NX') then
  redis.call('ZADD', KEYS[3], ARGV[2], KEYS[8 + kind])
  return 2 + kind
end
return 1
`;

/**
 * Moves a held lead into the delivery queue, only if it is still held: two releases never both reset it. Its source's
 * counts of the day's held leads go down with it (a count already gone stays gone).
 * KEYS: lead:<id>, leads:held, leads:due, leads:held:<day>:sources
 * ARGV: id, the lead as pending, when it is due (ms), then its source fields (none for a lead recorded without one)
 * Returns 1 when released, 0 when it was not held.
 */
export const releaseScript = `
if redis.call('ZREM', KEYS[2], ARGV[1]) == 0 then return 0 end
redis.call('SET', KEYS[1], ARGV[2])
redis.call('ZADD', KEYS[3], ARGV[3], ARGV[1])
for i = 4, #ARGV do
  if redis.call('HEXISTS', KEYS[4], ARGV[i]) == 1 and redis.call('HINCRBY', KEYS[4], ARGV[i], -1) <= 0 then
    redis.call('HDEL', KEYS[4], ARGV[i])
  end
end
return 1
`;
