-- The one state model of Host: the state model (docs/semantics.md), written once for Redis.
--
-- KEYS[1] is the lease's Redis key and KEYS[2..4] its waiters' structures below (its
-- ':q', ':w' and ':h'), all declared: on a cluster whose slot is being moved, Redis then
-- answers TRYAGAIN (which the host retries) while the four are split between two
-- masters, instead of running the script where the key is and its queue is not; and
-- while they are together on one of the two, a call that writes answers TRYAGAIN itself,
-- before its first write (see "Everything that can refuse" below).
-- ARGV[1] names the operation, ARGV[2..] are its arguments. Every instant is read here
-- from Redis TIME, in microseconds, and never goes back for a key: the latest reading is
-- stored with the key's state.
--
-- Every stored value of the key begins with a tag: the marker byte 0xC1, 'L', the format
-- version, and the form. 0xC1 is the one byte MessagePack never uses and no UTF-8 text,
-- JSON or Java serialization begins with, so another application's value under the
-- prefix is told from lease state by its first bytes, and then by its shape. The common
-- form, a grant with no waiters and nothing handed, is (version 3)
--   TAG_GRANT .. struct.pack('>i8i8i8', latest, expiresAt, grantedAt) .. holder
-- A key with waiters or handed grants holds a fixed-size head (version 3)
--   TAG_QUEUE .. struct.pack('>i8i8i8i8i8i8', latest, expiresAt or 0, grantedAt or 0, arrivals, gc,
--             #ticket) .. ticket the standing grant was handed to (or nothing) .. holder
-- and each waiter is an entry of its own, in three structures of the key's hash slot
-- (the same {...} hash tag), so that every step touches a constant number of entries:
--   KEYS[2] = KEYS[1]..':q'  sorted set: waiting tickets, scored by arrival (FIFO)
--   KEYS[3] = KEYS[1]..':w'  hash: 't'..ticket -> struct.pack('>i8i8i8i8', arrival, duration,
--                  bound, expiresAt or 0 while waiting) .. holder;
--                  'h'..holder -> the ticket it waits under (reentrancy)
--   KEYS[4] = KEYS[1]..':h'  sorted set: tickets handed a grant, scored by the instant until which
--                  the grant is kept for the waiter to ask
-- grantedAt is when the standing grant began (Grants 8): the now it was taken at, or the
-- instant the key was freed for the waiter it was handed to; 0 where it is not known.
-- Values of earlier snapshots, version 1's plain grant and version 2's head (the same
-- without grantedAt), are still read, their start unknown, and written back as version 3.
-- A grant handed to a waiter is kept for it until it asks, even past its instant (a
-- stalled waiter, or one whose message was lost and who asks only at its bound): until
-- the later of its instant and the waiter's bound is KEPT (KeyModel's window), or the
-- grant's duration if longer, in the past. Kept grants whose time passed are removed two at a
-- time by later calls. A key whose grant is absent or passed and that has no waiters is
-- deleted; PEXPIRE is garbage collection only, the same on all four keys, set past
-- every grant the stored state can still produce (gc: only ever raised).
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

local TAG_GRANT = '\193L\3G'
local TAG_QUEUE = '\193L\3W'
-- The longest duration the host accepts (36,500 days), in microseconds: a grant in the
-- plain form lies no further than this from its latest reading.
local LONGEST = 3153600000000000
-- How long a handed grant is kept at least, past the later of its instant and its
-- waiter's bound, for the waiter to ask, in microseconds: KeyModel.HANDED_KEPT_MICROS,
-- written in by RedisLeaseScript when it loads this text.
local KEPT = ${HANDED_KEPT_MICROS}

-- Redis expires a key on TIME, not on the key's clock, which stands still at the
-- latest reading while TIME is behind it (a clock that stepped back): a TTL counted
-- from the key's clock would end the key, its grants and its latest reading early. So
-- every TTL is counted from TIME, to the instant on the key's clock past which nothing
-- stored can stand, plus a second.
local function ttl_to(instant)
	return math.floor((instant - clock) / 1000) + 1000
end

local function write_grant(now, expires_at, granted_at, holder_bytes)
	redis.call('SET', key, TAG_GRANT .. struct.pack('>i8i8i8', now, expires_at, granted_at) .. holder_bytes, 'PX',
		ttl_to(expires_at))
end

-- A take of a key that holds nothing is granted at once as of the clock, in the plain
-- form, as below: SET NX writes it where the key is absent and leaves any value there
-- as it is (of any type), to be read below. The common take is then one write and no
-- read.
if op == 'try' or op == 'take' then
	local granted = clock + tonumber(ARGV[3])
	if redis.call('SET', key, TAG_GRANT .. struct.pack('>i8i8i8', clock, granted, clock) .. ARGV[2], 'NX', 'PX',
			ttl_to(granted)) then
		return { 1, granted }
	end
end

-- GET on a hash, a list or any other type is an error: answer what it is, touch nothing.
local raw = redis.pcall('GET', key)
if type(raw) == 'table' then
	return { -2, redis.call('TYPE', key).ok }
end

-- An absent key, or a grant in the plain form, read once for both paths below; any
-- value that is not lease state of this format is answered, and left as it is.
local plain = not raw
local latest, expires, granted_at, holder = clock, 0, 0, false
local arrivals, gc, handed_ticket = 0, 0, ''
if raw then
	local m1, m2, version, form = string.byte(raw, 1, 4)
	if m1 ~= 193 or m2 ~= 76 or not version then
		return { -2, 'string' }
	end
	-- version 3 is version 1 or 2 with the grant's start after its instant
	local started = (version == 3) and 8 or 0
	if (version == 1 or version == 3) and form == 71 then
		if #raw < 21 + started or #raw > 1044 + started then
			return { -2, 'string' }
		end
		latest, expires = struct.unpack('>i8i8', raw, 5)
		if started > 0 then
			granted_at = struct.unpack('>i8', raw, 21)
		end
		-- instants a clock can have written: text after the tag reads as thousands of years
		if latest <= 0 or expires <= 0 or latest > clock + LONGEST or expires > latest + LONGEST
				or granted_at < 0 or granted_at > expires then
			return { -2, 'string' }
		end
		holder = string.sub(raw, 21 + started)
		plain = true
	elseif (version == 2 or version == 3) and form == 87 then
		if #raw < 44 + started or #raw > 1200 + started then
			return { -2, 'string' }
		end
		local ticket_length
		latest, expires = struct.unpack('>i8i8', raw, 5)
		if started > 0 then
			granted_at = struct.unpack('>i8', raw, 21)
		end
		arrivals, gc, ticket_length = struct.unpack('>i8i8i8', raw, 21 + started)
		local from = 45 + started
		if latest <= 0 or expires < 0 or arrivals < 0 or ticket_length < 0 or ticket_length > 128
				or latest > clock + LONGEST or expires > latest + LONGEST or granted_at < 0 or granted_at > expires
				or #raw < from - 1 + ticket_length then
			return { -2, 'string' }
		end
		handed_ticket = string.sub(raw, from, from - 1 + ticket_length)
		holder = (expires > 0) and string.sub(raw, from + ticket_length) or false
	elseif version == 1 and form == 81 or version > 3 then
		-- the whole-queue MessagePack form of earlier hosts, or a later format
		return { -3, version }
	else
		return { -2, 'string' }
	end
end

local now = (latest > clock) and latest or clock

-- The common questions about a key nobody waits for, answered without the waiters'
-- structures: the same model, fewer commands. A take that must queue goes on to them.
if plain then
	local standing = holder and expires > now
	if op == 'try' or op == 'take' then
		if not standing then
			local granted = now + tonumber(ARGV[3])
			write_grant(now, granted, now, ARGV[2])
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
	elseif op == 'ask' or op == 'settle' then
		return { 2 }
	elseif op == 'grant' then
		if standing then
			return { 1, holder, expires, granted_at }
		end
		return { 0 }
	elseif op == 'waiting' then
		return { 1, 0 }
	else
		return redis.error_reply('unknown lease operation ' .. tostring(op))
	end
end

-- The waiters' structures are named by the caller, and must be the key's own: the plain
-- form above touches the key alone, so they are checked only here.
if #KEYS ~= 4 or KEYS[2] ~= key .. ':q' or KEYS[3] ~= key .. ':w' or KEYS[4] ~= key .. ':h' then
	return redis.error_reply('lease.lua takes the key and its :q, :w and :h as KEYS[1..4]')
end
local QUEUE = KEYS[2]
local ENTRIES = KEYS[3]
local HANDED = KEYS[4]
-- The channel of the key's handoffs, named by RedisHandoffChannels: the host's one plain
-- channel, the key prefix (which has no '{') and 'handoff', not of the slot, which a
-- cluster delivers (PUBLISH) to the subscribers of every node; or, where the caller names
-- one as its last argument past the operation's own, a channel of the key's slot,
-- <plain channel>{<tag>}, which Redis 7.0 delivers (SPUBLISH) on the slot's shard only.
-- Any other argument past an operation's own is ignored, as it always was.
local PLAIN = string.sub(key, 1, (string.find(key, '{', 1, true) or 1) - 1) .. 'handoff'
local OWN_ARGUMENTS = { try = 3, take = 4, ask = 3, settle = 3, release = 2 }
local CHANNEL, PUBLISH = PLAIN, 'PUBLISH'
local named = ARGV[#ARGV]
if OWN_ARGUMENTS[op] and #ARGV > OWN_ARGUMENTS[op] and string.sub(named, 1, #PLAIN + 1) == PLAIN .. '{'
		and string.sub(named, -1) == '}' then
	CHANNEL, PUBLISH = named, 'SPUBLISH'
end

-- The waiters' structures must be ours: of their type, and empty when the key has none.
for _, structure in ipairs({ { QUEUE, 'ZCARD' }, { ENTRIES, 'HLEN' }, { HANDED, 'ZCARD' } }) do
	local size = redis.pcall(structure[2], structure[1])
	if type(size) == 'table' or (plain and size > 0) then
		return { -2, redis.call('TYPE', structure[1]).ok }
	end
end

local function raise_gc(instant)
	if instant > gc then
		gc = instant
	end
end

-- The instant until which a grant handed to a waiter is kept for it to ask.
local function kept_until(instant, bound, duration)
	local from = (bound > instant) and bound or instant
	return from + ((duration > KEPT) and duration or KEPT)
end

local function entry(ticket)
	local value = redis.call('HGET', ENTRIES, 't' .. ticket)
	if not value then
		return nil
	end
	if #value < 32 then
		-- not of our making: fail the call rather than read it
		error('lease entry ' .. ticket .. ' of ' .. key .. ' is not lease state')
	end
	local arrival, duration, bound, granted = struct.unpack('>i8i8i8i8', value)
	return { ticket = ticket, arrival = arrival, duration = duration, bound = bound, granted = granted,
		holder = string.sub(value, 33) }
end

local function write_entry(e)
	redis.call('HSET', ENTRIES, 't' .. e.ticket,
		struct.pack('>i8i8i8i8', e.arrival, e.duration, e.bound, e.granted) .. e.holder)
end

local function head()
	return redis.call('ZRANGE', QUEUE, 0, 0)[1]
end

-- Take a waiter out of the queue, with its arrival instant (and out of the holder index,
-- if it is its entry there).
local function dequeue(e)
	redis.call('ZREM', QUEUE, e.ticket)
	if redis.call('HGET', ENTRIES, 'h' .. e.holder) == e.ticket then
		redis.call('HDEL', ENTRIES, 'h' .. e.holder, 'a' .. e.ticket)
	else
		redis.call('HDEL', ENTRIES, 'a' .. e.ticket)
	end
end

-- Tell the waiters, through the key's channel: the ticket the key was handed to and
-- its grant's instant, and the waiter now next in line with the standing grant's remaining
-- term, at which it must ask to derive a handoff by expiry. The message's format is stated
-- once, in the Javadoc of RedisHandoffMessage, its one decoder: change both together.
local function publish(ticket, granted)
	local next_ticket = head() or '-'
	local remaining = holder and (expires - now) or 0
	-- a message that cannot be sent is lost, as one can be anyway, rather than fail a call
	-- that wrote: a channel not of the slot would be refused only here
	redis.pcall(PUBLISH, CHANNEL, key .. ' ' .. ticket .. ' ' .. string.format('%.0f', granted) .. ' '
		.. next_ticket .. ' ' .. string.format('%.0f', remaining))
end

-- End the standing grant at freed_at and hand the key to the first waiter, in arrival
-- order, whose bound has not passed; waiters at the head whose bound passed are dropped.
local function hand_on(freed_at)
	while true do
		local ticket = head()
		if not ticket then
			holder, expires, granted_at, handed_ticket = false, 0, 0, ''
			return nil
		end
		local e = entry(ticket)
		if e then
			dequeue(e)
		else
			redis.call('ZREM', QUEUE, ticket)
			redis.call('HDEL', ENTRIES, 'a' .. ticket)
		end
		if e and e.bound >= freed_at then
			e.granted = freed_at + e.duration
			write_entry(e)
			local kept = kept_until(e.granted, e.bound, e.duration)
			redis.call('ZADD', HANDED, kept, ticket)
			raise_gc(kept)
			holder, expires, granted_at, handed_ticket = e.holder, e.granted, freed_at, ticket
			publish(ticket, e.granted)
			return e
		end
		if e then
			redis.call('HDEL', ENTRIES, 't' .. ticket)
		end
	end
end

-- The waiter hand_on(freed_at) would hand the key to, read without writing: the first
-- from the queue's i-th (0 is its head) whose bound has not passed at freed_at, or nil,
-- and the index past it. Reads every entry it passes, as hand_on does.
local function next_waiter(i, freed_at)
	while true do
		local ticket = redis.call('ZRANGE', QUEUE, i, i)[1]
		if not ticket then
			return nil, i
		end
		i = i + 1
		local w = entry(ticket)
		if w and w.bound >= freed_at then
			return w, i
		end
	end
end

-- The grant standing at now, read without writing: each passed grant hands the key on
-- as of its instant; touches only the waiters it would hand it to. Also answers how far
-- into the queue that took it, and when the grant began (0 where not known).
local function standing_now()
	local h, e, s, i = holder, expires, granted_at, 0
	while h and e <= now do
		local w
		w, i = next_waiter(i, e)
		if not w then
			return false, 0, i, 0
		end
		h, e, s = w.holder, e + w.duration, e
	end
	return h, e, i, s
end

local function persist()
	if redis.call('ZCARD', QUEUE) == 0 and redis.call('ZCARD', HANDED) == 0 then
		-- nobody waits and nothing is kept: the entries hash holds nothing either
		redis.call('DEL', ENTRIES)
		if holder and expires > now then
			-- the grant's own start, kept: it began before this call
			write_grant(now, expires, granted_at, holder)
		else
			redis.call('DEL', key)
		end
		return
	end
	if holder then
		raise_gc(expires)
	end
	if gc <= now then
		redis.call('DEL', key, QUEUE, ENTRIES, HANDED)
		return
	end
	local ttl = ttl_to(gc)
	redis.call('SET', key, TAG_QUEUE .. struct.pack('>i8i8i8i8i8i8', now, holder and expires or 0,
		holder and granted_at or 0, arrivals, gc, #handed_ticket) .. handed_ticket .. (holder or ''), 'PX', ttl)
	redis.call('PEXPIRE', QUEUE, ttl)
	redis.call('PEXPIRE', ENTRIES, ttl)
	redis.call('PEXPIRE', HANDED, ttl)
end

-- Questions that write nothing.
if op == 'waiting' then
	-- How many takes wait, as derived at now: the derivation hands the key on through the
	-- first i tickets of the queue (or drops them), and the rest wait. A ticket past its
	-- bound is counted until it is withdrawn, as its waiter asks at its bound: leaving it
	-- out would read every entry. Then when the first of them arrived, 0 where no instant
	-- was kept (a ticket an earlier release queued).
	local _, _, i = standing_now()
	local count = redis.call('ZCARD', QUEUE) - i
	local first = (count > 0) and redis.call('ZRANGE', QUEUE, i, i)[1]
	local arrived = first and redis.call('HGET', ENTRIES, 'a' .. first)
	return { 1, count, arrived and struct.unpack('>i8', arrived) or 0 }
end
if op == 'grant' or op == 'remaining' then
	local h, e, _, s = standing_now()
	if op == 'grant' then
		if h then
			return { 1, h, e, s }
		end
		return { 0 }
	end
	if h and h == ARGV[2] then
		return { 1, e - now }
	end
	return { 0 }
end

local writes = { try = true, take = true, ask = true, settle = true, release = true }
if not writes[op] then
	return redis.error_reply('unknown lease operation ' .. tostring(op))
end

-- Everything that can refuse this call is asked before its first write. Redis does not
-- roll a script back: a command refused mid-script fails the call and leaves every write
-- made before it standing, a state no path of this script writes.
if not plain then
	-- The waiters' entries the call reads, read now, so that one not of our making fails
	-- the call here: those the derivation below hands on through (standing_now walks the
	-- same queue), those a release or a give-back then hands on through, and the caller's.
	local h, _, i = standing_now()
	if (op == 'release' and h == ARGV[2]) or (op == 'settle' and ARGV[3] == '1') then
		next_waiter(i, now)
	end
	if op == 'try' or op == 'take' then
		local waiting = redis.call('HGET', ENTRIES, 'h' .. ARGV[2])
		if waiting then
			entry(waiting)
		end
	elseif op == 'ask' or op == 'settle' then
		entry(ARGV[2])
	end
end
-- The slot. While a reshard moves it between two masters (MIGRATING on this one, or
-- IMPORTING and the caller sent ASKING), Redis runs the script on a master only when the
-- four keys are all there, and then refuses, mid-script, a command on one of them that is
-- no longer there: on the source, any command on a key the script has emptied (a ZREM or
-- HDEL of its last member); on the target, a command naming several keys one of which is
-- absent. The writes below empty and refill the waiters' structures, so a call that
-- writes is refused here while the slot moves, with TRYAGAIN, which the host asks again
-- (RedisMigrations) until the slot has one master: the same answer Redis gives before
-- the script while the four keys are split. The probe names the key and a key of its slot
-- that nothing writes, which Redis refuses exactly while the slot moves (Redis 6.2 and 7.0
-- call it a non-local key, later versions an undeclared key during rehashing).
local probe = redis.pcall('EXISTS', key, key .. ':slot')
if type(probe) == 'table' then
	local err = tostring(probe.err)
	if string.find(err, 'non local key', 1, true) or string.find(err, 'rehashing', 1, true) then
		return redis.error_reply('TRYAGAIN the slot of ' .. key .. ' is moving between two masters: nothing written')
	end
	return redis.error_reply(err)
elseif probe ~= 1 then
	return redis.error_reply('ERR ' .. key .. ':slot exists, where lease.lua tells a moving slot by its absence: delete it')
end

if plain then
	-- the first waiter: the standing plain grant goes on in the queued form
	gc = expires
else
	-- kept grants whose time passed, two at a time: more than each handoff adds
	for _, ticket in ipairs(redis.call('ZRANGEBYSCORE', HANDED, '-inf', now, 'LIMIT', 0, 2)) do
		redis.call('ZREM', HANDED, ticket)
		redis.call('HDEL', ENTRIES, 't' .. ticket)
	end
	-- Derive the state at now: each passed grant hands the key on as of its instant.
	while holder and expires <= now do
		hand_on(expires)
	end
end

local function queued_answer(e)
	local first = (head() == e.ticket) and 1 or 0
	return { 0, e.bound - now, expires - now, first }
end

if op == 'try' or op == 'take' then
	local caller = ARGV[2]
	local duration = tonumber(ARGV[3])
	if not holder then
		holder, expires, granted_at, handed_ticket = caller, now + duration, now, ''
		persist()
		return { 1, expires }
	end
	-- every answer below stores what the derivation above may have handed on
	if holder == caller then
		persist()
		return { -1 }
	end
	local waiting = redis.call('HGET', ENTRIES, 'h' .. caller)
	if waiting then
		local w = entry(waiting)
		if w and w.granted == 0 then
			if w.bound >= now then
				persist()
				return { -1 }
			end
			-- the holder's own waiter whose bound passed: replaced, as the model replaces it,
			-- so that it stands ahead of nobody
			dequeue(w)
			redis.call('HDEL', ENTRIES, 't' .. waiting)
		end
	end
	if op == 'try' then
		persist()
		return { 0 }
	end
	arrivals = arrivals + 1
	local e = { ticket = ARGV[4], arrival = arrivals, duration = duration, bound = expires, granted = 0,
		holder = caller }
	redis.call('ZADD', QUEUE, arrivals, e.ticket)
	write_entry(e)
	redis.call('HSET', ENTRIES, 'h' .. caller, e.ticket, 'a' .. e.ticket, struct.pack('>i8', now))
	-- granted at the latest at its bound, for its duration, and kept after that
	raise_gc(kept_until(e.bound + duration, e.bound, duration))
	persist()
	return queued_answer(e)
elseif op == 'ask' or op == 'settle' then
	local ticket = ARGV[2]
	local interrupted = op == 'settle' and ARGV[3] == '1'
	local e = entry(ticket)
	if e and e.granted > 0 then
		if op == 'settle' then
			redis.call('ZREM', HANDED, ticket)
			redis.call('HDEL', ENTRIES, 't' .. ticket)
			if interrupted and holder == e.holder and expires == e.granted then
				-- interrupted at the moment it was granted: give the grant back
				hand_on(now)
			end
		end
		persist()
		return { 1, e.granted }
	end
	if e and e.bound >= now and not interrupted then
		persist()
		local answer = queued_answer(e)
		if op == 'ask' and handed_ticket ~= '' then
			-- for the asker's host to wake a waiter of its own whose message was lost
			answer[5] = handed_ticket
			answer[6] = expires
		end
		return answer
	end
	if e then
		-- past its bound (an ask or a settle) or giving up: withdrawn, as the model withdraws
		-- it, so that it stands ahead of nobody
		local was_head = head() == ticket
		dequeue(e)
		redis.call('HDEL', ENTRIES, 't' .. ticket)
		if was_head then
			publish('-', 0)
		end
	end
	persist()
	return { 2 }
elseif op == 'release' then
	if not holder or holder ~= ARGV[2] then
		persist()
		return { 0 }
	end
	if handed_ticket ~= '' then
		-- the releasing holder took its grant up without asking: nothing to keep for it
		redis.call('ZREM', HANDED, handed_ticket)
		redis.call('HDEL', ENTRIES, 't' .. handed_ticket)
	end
	local to = hand_on(now)
	persist()
	if to then
		return { 1, to.ticket, to.granted }
	end
	return { 1 }
end
