-- TEST FIXTURE, never shipped: lease.lua as it stood at commit
-- 46b29fd6164dca3c00941f360dd55dc94648d599 (last changed by ebaac9c), the last version of the
-- script that spoke Redis protocol 1 (format version 1: a key's whole queue in one MessagePack
-- value); commit b24450b61ad505480ea6705a3aefe921ca52e56b replaced it with protocol 2. Copied
-- below this header with one change to a comment, not to the code: its first line cited a design
-- text kept outside the repository, and now cites the rule that text became. Tests run this, the
-- previous protocol's own script, beside the current host (PreviousProtocolRedisInstance).
--
-- The one state model of Host: the state model (docs/semantics.md), written once for Redis.
--
-- KEYS[1] is the lease's only Redis key; ARGV[1] names the operation, ARGV[2..] are its
-- arguments. Every instant is read here from Redis TIME, in microseconds, and never
-- goes back for a key: the latest reading is stored with the key's state.
--
-- Every stored value begins with a tag: the marker byte 0xC1, 'L', the format version
-- (1), and the form. 0xC1 is the one byte MessagePack never uses and no UTF-8 text, JSON
-- or Java serialization begins with, so another application's value under the prefix is
-- told from lease state by its first bytes, and then by its shape. The common form, a
-- grant with no waiters and nothing handed, is
--   TAG_GRANT .. struct.pack('>i8i8', latest, expiresAt) .. holder
-- and costs no MessagePack on the way in or out; any other state is
--   TAG_STATE .. MessagePack { latest, holder or false, expiresAt, queue, handed }
--   queue:  { { ticket, holder, duration, bound }, ... }   in arrival order
--   handed: { { ticket, holder, expiresAt, duration, bound }, ... } grants handed to waiters
-- A grant handed to a waiter is kept for it until it asks, even past its instant (a
-- stalled waiter, or one whose message was lost and who asks only at its bound): until
-- the later of its instant and the waiter's bound is KEPT (a minute), or the grant's
-- duration if longer, in the past. A record stored without a bound is judged by its
-- instant alone.
-- A key whose grant is absent or passed and that has no waiters is deleted; PEXPIRE is
-- garbage collection only, set past every grant the stored state can still produce.
--
-- Answers: an array whose first element is a code, then integers (instants in
-- microseconds since the epoch, terms in microseconds) or bytes. The protocol, per
-- operation, is written down once, in the Javadoc of RedisScriptAnswer, the one decoder
-- of these answers: change both together.

if redis.replicate_commands then
	redis.replicate_commands()
end

local key = KEYS[1]
local op = ARGV[1]
local time = redis.call('TIME')
local clock = tonumber(time[1]) * 1000000 + tonumber(time[2])

local TAG_GRANT = '\193L\1G'
local TAG_STATE = '\193L\1Q'
-- The longest duration the host accepts (36,500 days), in microseconds: a grant in the
-- plain form lies no further than this from its latest reading.
local LONGEST = 3153600000000000
-- How long a handed grant is kept at least, past the later of its instant and its
-- waiter's bound, for the waiter to ask (one minute, in microseconds).
local KEPT = 60000000

-- GET on a hash, a list or any other type is an error: answer what it is, touch nothing.
local raw = redis.pcall('GET', key)
if type(raw) == 'table' then
	return { -2, redis.call('TYPE', key).ok }
end

-- An absent key, or a grant in the plain form, read once for both paths below; any
-- value that is not lease state of this format is answered, and left as it is.
local plain = not raw
local latest, expires, holder = clock, 0, false
if raw then
	local m1, m2, version, form = string.byte(raw, 1, 4)
	if m1 ~= 193 or m2 ~= 76 or not version then
		return { -2, 'string' }
	end
	if version ~= 1 then
		return { -3, version }
	end
	if form == 71 then
		if #raw < 21 or #raw > 1044 then
			return { -2, 'string' }
		end
		latest, expires = struct.unpack('>i8i8', raw, 5)
		-- instants a clock can have written: text after the tag reads as thousands of years
		if latest <= 0 or expires <= 0 or latest > clock + LONGEST or expires > latest + LONGEST then
			return { -2, 'string' }
		end
		holder = string.sub(raw, 21)
		plain = true
	elseif form ~= 81 then
		return { -2, 'string' }
	end
end

-- Redis expires a key on TIME, not on the key's clock, which stands still at the
-- latest reading while TIME is behind it (a clock that stepped back): a TTL counted
-- from the key's clock would end the key, its grants and its latest reading early. So
-- every TTL is counted from TIME, to the instant on the key's clock past which nothing
-- stored can stand, plus a second.
local function ttl_to(instant)
	return math.floor((instant - clock) / 1000) + 1000
end

local function write_grant(now, expires_at, holder_bytes)
	redis.call('SET', key, TAG_GRANT .. struct.pack('>i8i8', now, expires_at) .. holder_bytes, 'PX',
		ttl_to(expires_at))
end

-- The common questions about a key nobody waits for, answered without building the
-- general state below: the same model, fewer allocations. A take that must queue, and
-- every other question, goes on to the general model.
if plain then
	local now = (latest > clock) and latest or clock
	local standing = holder and expires > now
	if op == 'try' or op == 'take' then
		if not standing then
			local granted = now + tonumber(ARGV[3])
			write_grant(now, granted, ARGV[2])
			return { 1, granted }
		end
		if holder == ARGV[2] then
			return { -1 }
		end
		if op == 'try' then
			return { 0 }
		end
	elseif op == 'remaining' then
		if standing and holder == ARGV[2] then
			return { 1, expires - now }
		end
		return { 0 }
	elseif op == 'release' then
		if raw and not standing then
			-- a passed grant with nobody queued: nothing to keep
			redis.call('DEL', key)
			return { 0 }
		end
		if standing and holder == ARGV[2] then
			redis.call('DEL', key)
			return { 1 }
		end
		return { 0 }
	end
end

local state
if plain then
	state = { latest = latest, holder = holder, expires = expires, queue = {}, handed = {} }
else
	local ok, s = pcall(cmsgpack.unpack, string.sub(raw, 5))
	if not ok or type(s) ~= 'table' or type(s[1]) ~= 'number' or type(s[3]) ~= 'number'
			or type(s[4]) ~= 'table' or type(s[5]) ~= 'table' then
		return { -2, 'string' }
	end
	state = { latest = s[1], holder = s[2], expires = s[3], queue = s[4], handed = s[5] }
end
local now = clock
if state.latest > now then
	now = state.latest
end

-- End the standing grant at freedAt and hand the key to the first waiter, in arrival
-- order, whose bound has not passed; waiters whose bound passed are dropped.
local function hand_on(freed_at)
	local kept = {}
	local next = nil
	for _, w in ipairs(state.queue) do
		if w[4] >= freed_at then
			if next == nil then
				next = w
			else
				kept[#kept + 1] = w
			end
		end
	end
	state.queue = kept
	if next == nil then
		state.holder = false
		state.expires = 0
		return false
	end
	state.holder = next[2]
	state.expires = freed_at + next[3]
	state.handed[#state.handed + 1] = { next[1], next[2], state.expires, next[3], next[4] }
	return true
end

-- Derive the state at now: each passed grant hands the key on as of its instant.
local function resolve()
	while state.holder and state.expires <= now do
		hand_on(state.expires)
	end
end

-- The instant until which a grant handed to a waiter is kept for it to ask.
local function kept_until(instant, bound, duration)
	local from = (bound and bound > instant) and bound or instant
	return from + ((duration > KEPT) and duration or KEPT)
end

local function persist()
	local queue = {}
	local gc = 0
	for _, w in ipairs(state.queue) do
		if w[4] >= now then
			queue[#queue + 1] = w
			-- granted at the latest at its bound, for its duration, and kept after that
			local until_ = kept_until(w[4] + w[3], w[4], w[3])
			if until_ > gc then
				gc = until_
			end
		end
	end
	local handed = {}
	for _, r in ipairs(state.handed) do
		local until_ = kept_until(r[3], r[5], r[4])
		if until_ > now then
			handed[#handed + 1] = r
			if until_ > gc then
				gc = until_
			end
		end
	end
	if state.holder and state.expires > gc then
		gc = state.expires
	end
	if gc <= now then
		redis.call('DEL', key)
		return
	end
	if #queue == 0 and #handed == 0 then
		write_grant(now, state.expires, state.holder)
	else
		redis.call('SET', key, TAG_STATE .. cmsgpack.pack({ now, state.holder, state.expires, queue, handed }), 'PX',
			ttl_to(gc))
	end
end

local function reentrant(holder)
	if state.holder == holder then
		return true
	end
	for _, w in ipairs(state.queue) do
		if w[2] == holder and w[4] >= now then
			return true
		end
	end
	return false
end

local function find(list, ticket)
	for i, entry in ipairs(list) do
		if entry[1] == ticket then
			return i, entry
		end
	end
	return nil, nil
end

-- Tell the waiters of this key, through the host's one channel, that the key was handed
-- on: the message is the Redis key, the ticket it went to and its expiresAt, so that the
-- waiter it went to can answer without asking again.
local function publish(channel)
	local handed = state.handed[#state.handed]
	redis.call('PUBLISH', channel, key .. ' ' .. handed[1] .. ' ' .. string.format('%.0f', handed[3]))
end

local function standing_remaining()
	return state.expires - now
end

resolve()

if op == 'try' or op == 'take' then
	local holder = ARGV[2]
	local duration = tonumber(ARGV[3])
	if not state.holder then
		state.holder = holder
		state.expires = now + duration
		persist()
		return { 1, state.expires }
	end
	if reentrant(holder) then
		return { -1 }
	end
	if op == 'try' then
		return { 0 }
	end
	local bound = state.expires
	state.queue[#state.queue + 1] = { ARGV[4], holder, duration, bound }
	persist()
	return { 0, bound - now, standing_remaining() }
elseif op == 'ask' or op == 'settle' then
	local ticket = ARGV[2]
	local h, record = find(state.handed, ticket)
	if record then
		local expires = record[3]
		if op == 'settle' then
			table.remove(state.handed, h)
			if ARGV[3] == '1' and state.holder == record[2] and state.expires == expires then
				-- interrupted at the moment it was granted: give the grant back
				if hand_on(now) then
					publish(ARGV[4])
				end
			end
			persist()
		end
		return { 1, expires }
	end
	local q, waiter = find(state.queue, ticket)
	if waiter and waiter[4] >= now and not (op == 'settle' and ARGV[3] == '1') then
		return { 0, waiter[4] - now, standing_remaining() }
	end
	if waiter and op == 'settle' then
		table.remove(state.queue, q)
		persist()
	end
	return { 2 }
elseif op == 'remaining' then
	if state.holder and state.holder == ARGV[2] then
		return { 1, state.expires - now }
	end
	return { 0 }
elseif op == 'release' then
	local holder = ARGV[2]
	if not state.holder or state.holder ~= holder then
		return { 0 }
	end
	local handed = {}
	for _, r in ipairs(state.handed) do
		if r[2] ~= holder then
			handed[#handed + 1] = r
		end
	end
	state.handed = handed
	if hand_on(now) then
		publish(ARGV[3])
		persist()
		local to = state.handed[#state.handed]
		return { 1, to[1], to[3] }
	end
	persist()
	return { 1 }
elseif op == 'grant' then
	if state.holder then
		return { 1, state.holder, state.expires }
	end
	return { 0 }
end
return redis.error_reply('unknown lease operation ' .. tostring(op))
