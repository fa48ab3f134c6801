-- At most `limit` in flight: "at_us finish finish …", each held `extra` µs.
local t = numbers(0)
if prev and #t < 1 then return garbled() end
local at = t[1] or now
if now > at then at = now end
local flying = {}
for i = 2, #t do if t[i] > at then flying[#flying + 1] = t[i] end end
local allowed = #flying + cost <= limit
if allowed then
  local finish = at + extra
  local place = #flying + 1
  for i = 1, #flying do if flying[i] > finish then place = i; break end end
  for _ = 1, cost do table.insert(flying, place, finish) end
end
local state = {at}
for i = 1, #flying do state[#state + 1] = flying[i] end
return done(state, allowed)
