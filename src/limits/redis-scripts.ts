/**
 * The Lua that Redis runs for the shared limits (docs/configuration.md, "Limits shared by
 * instances"). A script runs alone on the server, so that checking a count and changing it
 * is one step: two instances can never both take the last token, place or request of a
 * quota. Times are Redis's own (TIME), never an instance's clock, so that instances whose
 * clocks differ still share one bucket and one day. The rules are those of the memory store:
 * auth/rate-limit.ts (the token bucket) and auth/usage-counter.ts (days and months since
 * 1970, UTC; the month refused before the day).
 *
 * Keys, for the key whose id (KeyGrant.id) is <id>: `shapeshot:<id>:rate` (a hash: tokens
 * and when they were counted), `shapeshot:<id>:busy` (a sorted set of the requests in
 * progress, each scored by the time it stops counting, so that the requests of an instance
 * that died are dropped then), `shapeshot:<id>:day:<day>` and `shapeshot:<id>:month:<month>`
 * (counters, which expire once their period is over). Each key expires once it would read
 * as absent, so that the keys of revoked keys do not stay.
 */

/** Every key of ours starts so. */
export const KEY_PREFIX = 'shapeshot:';

/** Redis's time, in milliseconds since the epoch. */
const NOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local day = math.floor(now / 86400000)
`;

/**
 * The month (months since January 1970) of a day (days since 1970-01-01): the proleptic
 * Gregorian calendar's civil-from-days (H. Hinnant's algorithm), in Lua's doubles.
 */
export const MONTH_OF = `
local function monthOf(day)
  local z = day + 719468
  local era = math.floor(z / 146097)
  local dayOfEra = z - era * 146097
  local yearOfEra = math.floor((dayOfEra - math.floor(dayOfEra / 1460) + math.floor(dayOfEra / 36524) - math.floor(dayOfEra / 146096)) / 365)
  local dayOfYear = dayOfEra - (365 * yearOfEra + math.floor(yearOfEra / 4) - math.floor(yearOfEra / 100))
  local fromMarch = math.floor((5 * dayOfYear + 2) / 153)
  local year = yearOfEra + era * 400
  if fromMarch >= 10 then return (year + 1 - 1970) * 12 + fromMarch - 10 end
  return (year - 1970) * 12 + fromMarch + 2
end
`;

/** A day's counter outlives its day, a month's its longest month: read only while current, they need not stay longer. */
const DAY_COUNTER_MS = 2 * 86_400_000;
const MONTH_COUNTER_MS = 32 * 86_400_000;

/**
 * One request: ARGV = id, perSecond, burst (0: no rate limit), maxConcurrent (0: none), the
 * milliseconds a place is held at most, the place's name, 1 to count the request, perDay,
 * perMonth (0: none). Answers {0, day, month} when taken; {1, retryAfterSeconds} past the
 * rate limit; {2, inProgress} at maxConcurrent; {3, 1 (day) or 2 (month), quota, day, month,
 * now} at the quota. A token is spent once the rate limit lets the request through, whatever
 * refuses it after (as in memory); nothing else is taken from a request that is refused.
 */
export const TAKE = `${NOW}${MONTH_OF}
local base = '${KEY_PREFIX}' .. ARGV[1]
local perSecond, burst = tonumber(ARGV[2]), tonumber(ARGV[3])
if burst > 0 then
  local bucket = base .. ':rate'
  local held = redis.call('HMGET', bucket, 'tokens', 'at')
  local tokens = burst
  if held[1] then tokens = math.min(burst, tonumber(held[1]) + math.max(0, now - tonumber(held[2])) / 1000 * perSecond) end
  local allowed = tokens >= 1
  if allowed then tokens = tokens - 1 end
  redis.call('HSET', bucket, 'tokens', tokens, 'at', now)
  redis.call('PEXPIRE', bucket, math.ceil((burst - tokens) / perSecond * 1000) + 1000)
  if not allowed then return {1, math.max(1, math.ceil((1 - tokens) / perSecond))} end
end
local maxConcurrent = tonumber(ARGV[4])
local busy = base .. ':busy'
if maxConcurrent > 0 then
  redis.call('ZREMRANGEBYSCORE', busy, '-inf', now)
  local inProgress = redis.call('ZCARD', busy)
  if inProgress >= maxConcurrent then return {2, inProgress} end
end
local month = monthOf(day)
if ARGV[7] == '1' then
  local dayKey, monthKey = base .. ':day:' .. day, base .. ':month:' .. month
  local perDay, perMonth = tonumber(ARGV[8]), tonumber(ARGV[9])
  if perMonth > 0 and tonumber(redis.call('GET', monthKey) or 0) >= perMonth then return {3, 2, perMonth, day, month, now} end
  if perDay > 0 and tonumber(redis.call('GET', dayKey) or 0) >= perDay then return {3, 1, perDay, day, month, now} end
  if redis.call('INCR', dayKey) == 1 then redis.call('PEXPIRE', dayKey, ${DAY_COUNTER_MS}) end
  if redis.call('INCR', monthKey) == 1 then redis.call('PEXPIRE', monthKey, ${MONTH_COUNTER_MS}) end
end
if maxConcurrent > 0 then
  local holdMs = tonumber(ARGV[5])
  redis.call('ZADD', busy, now + holdMs, ARGV[6])
  if redis.call('PTTL', busy) < holdMs then redis.call('PEXPIRE', busy, holdMs) end
end
return {0, day, month}
`;

/**
 * The end of a request: ARGV = id, its place's name ('' for none), 1 to give back its count,
 * the day and month it was counted in. A count is given back only while it is above zero.
 */
export const RELEASE = `
local base = '${KEY_PREFIX}' .. ARGV[1]
if ARGV[2] ~= '' then redis.call('ZREM', base .. ':busy', ARGV[2]) end
if ARGV[3] == '1' then
  for _, counter in ipairs({base .. ':day:' .. ARGV[4], base .. ':month:' .. ARGV[5]}) do
    if tonumber(redis.call('GET', counter) or 0) > 0 then redis.call('DECR', counter) end
  end
end
return 0
`;

/** A key's counts: ARGV = id. Answers {today's count, this month's, day, month}. */
export const USAGE = `${NOW}${MONTH_OF}
local base = '${KEY_PREFIX}' .. ARGV[1]
local month = monthOf(day)
return {tonumber(redis.call('GET', base .. ':day:' .. day) or 0), tonumber(redis.call('GET', base .. ':month:' .. month) or 0), day, month}
`;

/** The ids of the keys revoked by a reload (a set), and the channel that says it changed. */
export const REVOKED = `${KEY_PREFIX}revoked`;
