-- Fixed window: "window_index used".
local t = numbers(2)
if not t then return garbled() end
local index_now = idiv(now, window)
local index, used = index_now, 0
if prev and t[1] >= index_now then index, used = t[1], t[2] end
local allowed = used + cost <= limit
if allowed then used = used + cost end
return done({index, used}, allowed)
