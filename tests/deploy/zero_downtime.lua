-- wrk script for zero_downtime.sh: fetches two files of a site in turn
-- and checks every answer. A body must equal, byte for byte, one of the
-- versions of those files in the releases pushed (bodies.lst lists them:
-- "VERSION FILE" per line); the X-Release header is recorded with the
-- version of the body it came with, so the caller can check both belong
-- to the same release.
--
-- usage: ZD_RESULT=FILE wrk ... -s zero_downtime.lua URL -- LIST

local threads = {}

function setup(thread)
	thread:set("id", #threads + 1)
	table.insert(threads, thread)
end

function init(args)
	local list, line
	paths = { "/", "/css/site.css" }
	turn = 0
	known = {}
	good = 0
	mismatch = 0
	non200 = 0
	seen = {}
	first_bad = ""
	list = io.open(args[1], "r")
	for line in list:lines() do
		local v, file = line:match("^(%S+) (.+)$")
		local fp = io.open(file, "rb")
		known[fp:read("*a")] = v
		fp:close()
	end
	list:close()
end

function request()
	turn = turn + 1
	return wrk.format("GET", paths[turn % 2 + 1])
end

function response(status, headers, body)
	if status ~= 200 then
		non200 = non200 + 1
		if first_bad == "" then
			first_bad = "status " .. status
		end
		return
	end
	local v = known[body]
	if v == nil then
		mismatch = mismatch + 1
		if first_bad == "" then
			first_bad = "unknown body of " .. #body .. " bytes: " ..
			    body:sub(1, 60)
		end
		return
	end
	good = good + 1
	local key = (headers["X-Release"] or headers["x-release"] or "-") ..
	    " " .. v
	seen[key] = (seen[key] or 0) + 1
end

function done(summary, latency, requests)
	local out = io.open(os.getenv("ZD_RESULT"), "w")
	local g, m, n, fb = 0, 0, 0, ""
	local all = {}
	for _, t in ipairs(threads) do
		g = g + t:get("good")
		m = m + t:get("mismatch")
		n = n + t:get("non200")
		if fb == "" then
			fb = t:get("first_bad")
		end
		for k, c in pairs(t:get("seen")) do
			all[k] = (all[k] or 0) + c
		end
	end
	out:write(string.format("requests %d\n", summary.requests))
	out:write(string.format("errors %d %d %d %d %d\n",
	    summary.errors.connect, summary.errors.read, summary.errors.write,
	    summary.errors.status, summary.errors.timeout))
	out:write(string.format("good %d\nmismatch %d\nnon200 %d\n", g, m, n))
	out:write("first_bad " .. fb .. "\n")
	for k, c in pairs(all) do
		out:write(string.format("pair %s %d\n", k, c))
	end
	out:close()
end
