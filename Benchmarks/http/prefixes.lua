-- wrk script for the HTTP load test of `catalogue serve` (Benchmarks/README.md, "HTTP server"):
-- prefix searches of products as the search page sends them, one request per keystroke. The
-- benchmark's 10 keystroke prefixes (SearchWorkloads.swift: a, ch, cré, dél, forêt, mo, pât, q,
-- sol, zéph) are typed key by key: 27 different searches, each a page of 50 with its total and
-- highlights. Each wrk thread starts at a different place in the list.
--
--   wrk -t2 -c64 -d30s --latency -s Benchmarks/http/prefixes.lua http://127.0.0.1:8080
--
-- The in-process comparison (HTTPServerWorkload.swift) reads the same list from this file.
typed = {"a", "ch", "cré", "dél", "forêt", "mo", "pât", "q", "sol", "zéph"}

local function encode(text)
  return (text:gsub("[^%w%-%._~]", function(c) return string.format("%%%02X", string.byte(c)) end))
end

paths = {}
for _, word in ipairs(typed) do
  local prefix = ""
  -- one UTF-8 character at a time
  for char in word:gmatch("[%z\1-\127\194-\244][\128-\191]*") do
    prefix = prefix .. char
    paths[#paths + 1] = "/api/products?q=" .. encode(prefix) .. "&limit=50"
  end
end

local threads = 0
function setup(thread)
  thread:set("start", threads * 13)
  threads = threads + 1
end

function init(args)
  position = start or 0
end

function request()
  position = position % #paths + 1
  return wrk.format("GET", paths[position])
end
