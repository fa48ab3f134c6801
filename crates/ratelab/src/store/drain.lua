-- Token bucket, GCRA and the leaky queue: "ahead_parts at_us", draining `limit` parts a
-- microsecond; room for `extra` requests of `window` parts each.
local t = numbers(2)
if not t then return garbled() end
local ahead, at = 0, now
if prev then ahead, at = t[1], t[2] end
if now > at then
  local dt = now - at
  if dt * limit >= ahead then ahead = 0 else ahead = ahead - dt * limit end
  at = now
end
local after = ahead + cost * window
local allowed = after <= extra * window
if allowed then ahead = after end
return done({ahead, at}, allowed)
