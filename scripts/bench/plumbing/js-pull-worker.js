// Stream plumbing bench (scripts/bench-stream-plumbing.mjs): the gateway's stream shape with none of
// its work — the upstream body is read in JavaScript and every read is enqueued on a pull-based
// ReadableStream that is the client's body, as worker/relay/stream-relay.ts does.
export default {
  async fetch(request, env) {
    const url = new URL(request.url)
    const upstream = await env.DIRECT_NETWORK.fetch(env.UPSTREAM + url.pathname + url.search, { method: request.method, headers: request.headers, body: request.body })
    const reader = upstream.body.getReader()
    const body = new ReadableStream({
      async pull(controller) {
        const r = await reader.read()
        if (r.done) controller.close()
        else controller.enqueue(r.value)
      },
      cancel: (reason) => reader.cancel(reason),
    })
    return new Response(body, { status: upstream.status, headers: upstream.headers })
  },
}
