-- Sliding log: the admitted instants, oldest first.
local t = numbers(0)
local back = t[#t] or 0
local at = now
if back > at then at = back end
local first = 1
while first <= #t and t[first] + window <= at do first = first + 1 end
local log = {}
for i = first, #t do log[#log + 1] = t[i] end
local allowed = #log + cost <= limit
if allowed then for _ = 1, cost do log[#log + 1] = at end end
return done(log, allowed)
