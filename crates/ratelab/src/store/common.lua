-- Shared by every script (prepended to each): whole numbers as Redis's Lua holds them,
-- exact up to 2^53, which `ratelab serve` checks every figure stays under.
-- KEYS[1]: the caller's state. ARGV: now (µs), cost, TTL (ms), limit, window (µs), extra.
local now, cost, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local limit, window, extra = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local prev = redis.call('GET', KEYS[1])

-- floor(a / b) for whole a >= 0 and b >= 1, corrected where the division rounded.
local function idiv(a, b)
  local q = math.floor(a / b)
  if q * b > a then q = q - 1 elseif (q + 1) * b <= a then q = q + 1 end
  return q
end

-- The state as its numbers; `n` of them at least, else the reply is an error.
local function numbers(n)
  local t = {}
  if prev then
    for d in string.gmatch(prev, '%d+') do t[#t + 1] = tonumber(d) end
    if #t < n then return nil end
  end
  return t
end

-- Writes the state's numbers with the TTL and answers the state read and the decision.
local function done(t, allowed)
  local parts = {}
  for i = 1, #t do parts[i] = string.format('%.0f', t[i]) end
  redis.call('SET', KEYS[1], table.concat(parts, ' '), 'PX', ttl)
  return {prev, allowed and 1 or 0}
end

local function garbled()
  return redis.error_reply('GARBLED the state at this key is not one ratelab wrote')
end
