/** Test harness: base64 event-stream fixtures as upstream Responses that arrive in byte chunks. */

export const fromBase64 = (b64: string) => Uint8Array.from(atob(b64.trim()), (c) => c.charCodeAt(0))

/** The fixture as an upstream Response whose body arrives in `every`-byte chunks. */
export function frameResponse(bytes: Uint8Array, every: number = Infinity): Response {
  const step = Number.isFinite(every) ? every : bytes.length
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += step) controller.enqueue(bytes.slice(i, i + step))
        controller.close()
      },
    }),
    { headers: { 'content-type': 'application/vnd.amazon.eventstream' } }
  )
}
