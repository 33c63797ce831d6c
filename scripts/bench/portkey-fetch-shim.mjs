// Preloaded into Portkey's Node process by scripts/bench/portkey.mjs: `fetch` answers with
// mutable headers, which Portkey 1.15.2's OpenAI pass-through needs on Node ≥ 20 (see there).
const original = globalThis.fetch
const NodeResponse = globalThis.Response
globalThis.fetch = async (...args) => {
  const res = await original(...args)
  return new NodeResponse(res.body, { status: res.status, statusText: res.statusText, headers: new Headers(res.headers) })
}
