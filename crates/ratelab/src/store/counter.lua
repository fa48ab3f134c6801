-- Sliding-window counter: "at_us current previous".
local t = numbers(3)
if not t then return garbled() end
local at, current, previous = now, 0, 0
if prev then at, current, previous = t[1], t[2], t[3] end
if now > at then
  local seen, n = idiv(at, window), idiv(now, window)
  if n == seen + 1 then previous, current = current, 0
  elseif n > seen + 1 then previous, current = 0, 0 end
  at = now
end
local elapsed = at - idiv(at, window) * window
local weighted = previous * (window - elapsed)
local allowance = limit * window
local room = 0
if allowance > weighted then room = idiv(allowance - weighted, window) end
room = room - current
local allowed = room >= cost
if allowed then current = current + cost end
return done({at, current, previous}, allowed)
