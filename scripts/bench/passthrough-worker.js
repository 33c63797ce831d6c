// The ceiling for the benchmark: a bare Worker that forwards every request to UPSTREAM unchanged,
// run in the same local runtime (workerd via Miniflare) as the gateway, with the same direct
// network binding for its upstream call (scripts/serve.mjs directNetwork).
export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    return (env.DIRECT_NETWORK ?? globalThis).fetch(env.UPSTREAM + url.pathname + url.search, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    })
  },
}
