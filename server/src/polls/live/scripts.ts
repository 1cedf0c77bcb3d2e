import type { Redis } from 'ioredis';

/**
 * Lua scripts on the live totals of a poll. Each runs atomically in Redis, so a vote batch, a
 * rebuild step and a concurrent reader never see half of each other.
 *
 * The totals hash (liveKeys.totals) holds:
 *   v:<optionId> / p:<optionId>  votes (rows) and points per option
 *   tv / tp                      votes and points of the whole poll
 *   seq                          +1 per recorded batch; jumps to Redis' clock in µs on a rebuild
 *   at                           committedAt (ms) of the newest batch included
 *   o                            option ids in option order (written by a rebuild)
 *   rb / rbat                    only while a rebuild is in progress: its token and start time (ms)
 * The voters hash (liveKeys.voters) maps userId → vote rows of that user on the poll: its length is
 * the number of distinct voters, exact even when rows are removed.
 *
 * Numbers that may exceed 2^31 are formatted with %.0f: Lua's default conversion would print
 * "1.7e+15" and lose digits.
 */

/**
 * KEYS: totals, voters. ARGV: channel, ttlMs, committedAt, eventHead, nAdded, (optionId, userId,
 * points) × nAdded, nRemoved, (optionId, userId, points) × nRemoved.
 * Applies one committed batch and publishes its `poll.votes` event (eventHead .. seq .. '}}': the payload and its bus envelope). When the
 * totals are missing nothing is written (a partial hash would look complete): the next reader
 * rebuilds them from PostgreSQL, where this batch is already committed. The event still goes out,
 * with seq 0, so viewers get the voters and a fresh snapshot.
 */
const RECORD = `
local totals, voters = KEYS[1], KEYS[2]
local channel, ttl, at, head = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local seq = 0
if redis.call('EXISTS', totals) == 1 then
  -- During a rebuild the hashes hold deltas: a count may dip to zero or below before the rebuild
  -- adds PostgreSQL's rows, so voters are only removed once it is done.
  local building = redis.call('HEXISTS', totals, 'rb') == 1
  local i = 5
  local dv, dp = 0, 0
  local nAdded = tonumber(ARGV[i]); i = i + 1
  for _ = 1, nAdded do
    local option, user, points = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
    i = i + 3
    redis.call('HINCRBY', totals, 'v:' .. option, 1)
    redis.call('HINCRBY', totals, 'p:' .. option, points)
    redis.call('HINCRBY', voters, user, 1)
    dv = dv + 1
    dp = dp + points
  end
  local nRemoved = tonumber(ARGV[i]); i = i + 1
  for _ = 1, nRemoved do
    local option, user, points = ARGV[i], ARGV[i + 1], tonumber(ARGV[i + 2])
    i = i + 3
    redis.call('HINCRBY', totals, 'v:' .. option, -1)
    redis.call('HINCRBY', totals, 'p:' .. option, -points)
    if redis.call('HINCRBY', voters, user, -1) <= 0 and not building then redis.call('HDEL', voters, user) end
    dv = dv - 1
    dp = dp - points
  end
  redis.call('HINCRBY', totals, 'tv', dv)
  redis.call('HINCRBY', totals, 'tp', dp)
  seq = redis.call('HINCRBY', totals, 'seq', 1)
  if tonumber(at) > tonumber(redis.call('HGET', totals, 'at') or '0') then redis.call('HSET', totals, 'at', at) end
  redis.call('PEXPIRE', totals, ttl)
  redis.call('PEXPIRE', voters, ttl)
end
redis.call('PUBLISH', channel, head .. string.format('%.0f', seq) .. '}}')
return seq
`;

/**
 * KEYS: totals, voters. ARGV: token, force ('1'/'0'), staleMs, ttlMs.
 * Returns 0: the totals exist and are complete (nothing to do); -1: another rebuild started less
 * than staleMs ago (wait for it); 1: this caller owns the rebuild. From now on the hashes hold the
 * deltas of the batches recorded meanwhile; finishing adds PostgreSQL's rows on top of them.
 * The new seq is above the old one and above Redis' clock in µs, so it stays increasing even when
 * the old totals were lost (a flush, an expiry).
 */
const BEGIN_REBUILD = `
local totals, voters = KEYS[1], KEYS[2]
local token, force, stale, ttl = ARGV[1], ARGV[2] == '1', tonumber(ARGV[3]), ARGV[4]
local time = redis.call('TIME')
local nowUs = tonumber(time[1]) * 1000000 + tonumber(time[2])
local nowMs = math.floor(nowUs / 1000)
if redis.call('EXISTS', totals) == 1 and not force then
  local startedAt = redis.call('HGET', totals, 'rbat')
  if not startedAt then return 0 end
  if nowMs - tonumber(startedAt) < stale then return -1 end
end
local seq = tonumber(redis.call('HGET', totals, 'seq') or '0') + 1
if nowUs > seq then seq = nowUs end
redis.call('DEL', totals, voters)
redis.call('HSET', totals, 'rb', token, 'rbat', string.format('%.0f', nowMs), 'seq', string.format('%.0f', seq), 'tv', '0', 'tp', '0', 'at', '0')
redis.call('PEXPIRE', totals, ttl)
return 1
`;

/**
 * KEYS: totals, voters. ARGV: token, final ('1'/'0'), ttlMs, nUsers, (userId, rows) × nUsers and,
 * when final: at, optionOrder, channel, eventHead, nOptions, (optionId, votes, points) × nOptions.
 * Adds a chunk of PostgreSQL's voters; the final call also adds the option totals, completes the
 * hash (bumping seq) and publishes a `poll.votes` event without voters so every instance refreshes.
 * Returns -1 when the rebuild was superseded (its token is gone), else the seq (0 for a chunk).
 */
const FINISH_REBUILD = `
local totals, voters = KEYS[1], KEYS[2]
if redis.call('HGET', totals, 'rb') ~= ARGV[1] then return -1 end
local ttl = ARGV[3]
local i = 5
local nUsers = tonumber(ARGV[4])
for _ = 1, nUsers do
  if redis.call('HINCRBY', voters, ARGV[i], ARGV[i + 1]) <= 0 then redis.call('HDEL', voters, ARGV[i]) end
  i = i + 2
end
redis.call('PEXPIRE', voters, ttl)
if ARGV[2] ~= '1' then return 0 end
local at, order, channel, head = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
i = i + 4
local nOptions = tonumber(ARGV[i]); i = i + 1
local tv, tp = 0, 0
for _ = 1, nOptions do
  local option, votes, points = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  i = i + 3
  redis.call('HINCRBY', totals, 'v:' .. option, votes)
  redis.call('HINCRBY', totals, 'p:' .. option, points)
  tv = tv + tonumber(votes)
  tp = tp + tonumber(points)
end
redis.call('HINCRBY', totals, 'tv', string.format('%.0f', tv))
redis.call('HINCRBY', totals, 'tp', string.format('%.0f', tp))
if tonumber(at) > tonumber(redis.call('HGET', totals, 'at') or '0') then redis.call('HSET', totals, 'at', at) end
redis.call('HSET', totals, 'o', order)
redis.call('HDEL', totals, 'rb', 'rbat')
local seq = redis.call('HINCRBY', totals, 'seq', 1)
redis.call('PEXPIRE', totals, ttl)
redis.call('PUBLISH', channel, head .. string.format('%.0f', seq) .. '}}')
return seq
`;

/** KEYS: totals, voters. ARGV: token. A failed rebuild drops its partial hashes (if still its own). */
const ABORT_REBUILD = `
if redis.call('HGET', KEYS[1], 'rb') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
`;

/** Live totals of a poll nobody votes on expire after this (refreshed by every batch); they rebuild on demand. */
export const LIVE_TTL_MS = 3 * 24 * 3600_000;

type Arg = string | number;

/** The scripts as typed commands (defineCommand: EVALSHA, loading the script on first use). */
export interface LiveCommands {
  liveRecord(totals: string, voters: string, ...args: Arg[]): Promise<number>;
  liveBeginRebuild(totals: string, voters: string, ...args: Arg[]): Promise<number>;
  liveFinishRebuild(totals: string, voters: string, ...args: Arg[]): Promise<number>;
  liveAbortRebuild(totals: string, voters: string, token: string): Promise<number>;
}

export function defineLiveCommands(redis: Redis): LiveCommands {
  redis.defineCommand('liveRecord', { numberOfKeys: 2, lua: RECORD });
  redis.defineCommand('liveBeginRebuild', { numberOfKeys: 2, lua: BEGIN_REBUILD });
  redis.defineCommand('liveFinishRebuild', { numberOfKeys: 2, lua: FINISH_REBUILD });
  redis.defineCommand('liveAbortRebuild', { numberOfKeys: 2, lua: ABORT_REBUILD });
  return redis as unknown as LiveCommands;
}
