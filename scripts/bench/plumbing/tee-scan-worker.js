// Stream plumbing bench (scripts/bench-stream-plumbing.mjs): the runtime pipes one branch of a
// tee() of the upstream body to the client, and JavaScript scans the other branch in batches of at
// least SCAN_BYTES (workerd's ReadableStreamBYOBReader.readAtLeast), looking for the usage event in
// each batch's tail — what a gateway would need to bill without entering JavaScript for every read.
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url)
    const upstream = await env.DIRECT_NETWORK.fetch(env.UPSTREAM + url.pathname + url.search, { method: request.method, headers: request.headers, body: request.body })
    const [client, scan] = upstream.body.tee()
    const min = Number(env.SCAN_BYTES)
    ctx.waitUntil(
      (async () => {
        const reader = scan.getReader({ mode: 'byob' })
        const decoder = new TextDecoder()
        let buffer = new ArrayBuffer(Math.max(65536, min * 2))
        let usage = -1
        for (;;) {
          const r = await reader.readAtLeast(min, new Uint8Array(buffer))
          if (r.value) {
            const tail = decoder.decode(r.value.subarray(Math.max(0, r.value.byteLength - 1024)))
            if (tail.lastIndexOf('"usage"') !== -1) usage = r.value.byteLength
            buffer = r.value.buffer
          }
          if (r.done) return usage
        }
      })()
    )
    return new Response(client, { status: upstream.status, headers: upstream.headers })
  },
}
