/**
 * HTTP/1.1 over a raw socket, for supplier calls carried by a channel proxy: the request head
 * (origin-form, or absolute-form to an HTTP proxy for a plain-http supplier) and the response read
 * back as a `Response` whose body streams chunk by chunk — chunked, content-length or until close —
 * without being buffered. One request per connection (`connection: close`).
 */
import type { ByteReader } from './byte-reader'

const CRLF = new Uint8Array([13, 10])
const HEAD_END = new Uint8Array([13, 10, 13, 10])
const MAX_HEAD = 64 * 1024
const MAX_LINE = 8 * 1024
/** Hop-by-hop headers the caller's request may carry; this module writes its own framing. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'te',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'accept-encoding',
])

interface RequestForm {
  /** Absolute-form request target (`POST http://host/path HTTP/1.1`): a plain-http supplier through an HTTP proxy. */
  absolute?: boolean
  /** Extra header lines, e.g. Proxy-Authorization for the absolute form. */
  extra?: Record<string, string>
}

/** The request head and body bytes for `request` (its body read whole: requests are bounded, answers are not). */
export async function encodeRequest(request: Request, form: RequestForm = {}): Promise<Uint8Array> {
  const url = new URL(request.url)
  const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined
  const target = form.absolute ? `${url.origin}${url.pathname}${url.search}` : `${url.pathname}${url.search}`
  const lines = [`${request.method} ${target} HTTP/1.1`, `host: ${url.host}`]
  for (const [name, value] of request.headers) if (!HOP_BY_HOP.has(name)) lines.push(`${name}: ${value}`)
  for (const [name, value] of Object.entries(form.extra ?? {})) lines.push(`${name}: ${value}`)
  // Uncompressed answers stream event by event; a supplier that compresses anyway is decoded below.
  lines.push('accept-encoding: identity', 'connection: close')
  if (body || !['GET', 'HEAD'].includes(request.method)) lines.push(`content-length: ${body?.length ?? 0}`)
  const head = new TextEncoder().encode(`${lines.join('\r\n')}\r\n\r\n`)
  if (!body?.length) return head
  const out = new Uint8Array(head.length + body.length)
  out.set(head)
  out.set(body, head.length)
  return out
}

interface ResponseHead {
  status: number
  statusText: string
  headers: Headers
}

/** Parses a status line and header block (`what` names the party in errors). */
function parseHead(bytes: Uint8Array, what: string): ResponseHead {
  const text = new TextDecoder('latin1').decode(bytes)
  const [statusLine = '', ...lines] = text.split('\r\n')
  const m = /^HTTP\/1\.[01] (\d{3})(?: (.*))?$/.exec(statusLine)
  if (!m) throw new Error(`${what} did not answer HTTP/1.1 (${JSON.stringify(statusLine.slice(0, 60))})`)
  const headers = new Headers()
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0 || /^[ \t]/.test(line)) throw new Error(`${what} sent a malformed header line`)
    headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  return { status: Number(m[1]), statusText: m[2] ?? '', headers }
}

/** Reads one response head (skipping interim 1xx answers) from the connection. */
export async function readHead(reader: ByteReader, what: string): Promise<ResponseHead> {
  for (;;) {
    const head = parseHead(await reader.until(HEAD_END, MAX_HEAD, `${what} answer head`), what)
    if (head.status >= 200 || head.status === 101) return head
  }
}

/**
 * The supplier's answer as a Response whose body pulls from the connection as the client reads;
 * `done` runs once when the body ended, failed or was cancelled (it closes the socket).
 */
export async function readResponse(reader: ByteReader, method: string, done: () => void): Promise<Response> {
  const head = await readHead(reader, 'supplier')
  if (head.status < 200 || head.status > 599) throw new Error(`supplier answered status ${head.status}`)
  const headers = new Headers(head.headers)
  for (const h of ['transfer-encoding', 'connection', 'keep-alive']) headers.delete(h)
  const noBody = method === 'HEAD' || head.status === 204 || head.status === 304
  if (noBody) {
    done()
    return new Response(null, { status: head.status, statusText: head.statusText, headers })
  }
  const next = bodyFraming(reader, head.headers)
  let finished = false
  const finish = () => {
    if (finished) return
    finished = true
    done()
  }
  let body: ReadableStream<Uint8Array> = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const chunk = await next()
          if (chunk) controller.enqueue(chunk)
          else {
            controller.close()
            finish()
          }
        } catch (err) {
          controller.error(err)
          finish()
        }
      },
      cancel() {
        reader.cancel()
        finish()
      },
    },
    { highWaterMark: 0 }
  )
  const coding = head.headers.get('content-encoding')?.trim().toLowerCase()
  if (coding === 'gzip' || coding === 'deflate') {
    body = body.pipeThrough(new DecompressionStream(coding))
    headers.delete('content-encoding')
    headers.delete('content-length')
  }
  return new Response(body, { status: head.status, statusText: head.statusText, headers })
}

type NextChunk = () => Promise<Uint8Array | undefined>

/** The body reader the headers call for: chunked, a content length, or everything until the close. */
function bodyFraming(reader: ByteReader, headers: Headers): NextChunk {
  const te = headers.get('transfer-encoding')
  if (te) {
    if (te.split(',').at(-1)!.trim().toLowerCase() !== 'chunked') throw new Error(`supplier sent an unsupported transfer-encoding: ${te}`)
    return chunked(reader)
  }
  const cl = headers.get('content-length')
  if (cl !== null) {
    const values = new Set(cl.split(',').map((v) => v.trim()))
    const [only] = values
    if (values.size !== 1 || !/^\d{1,15}$/.test(only!)) throw new Error(`supplier sent a malformed content-length: ${cl}`)
    return counted(reader, Number(only))
  }
  return async () => reader.some(64 * 1024)
}

function counted(reader: ByteReader, length: number): NextChunk {
  let left = length
  return async () => {
    if (left === 0) return undefined
    const chunk = await reader.some(left)
    if (!chunk) throw new Error(`supplier closed the connection ${left} bytes before the end of the body`)
    left -= chunk.length
    return chunk
  }
}

function chunked(reader: ByteReader): NextChunk {
  let left = 0
  let afterData = false
  let ended = false
  const latin1 = new TextDecoder('latin1')
  return async () => {
    for (;;) {
      if (ended) return undefined
      if (left > 0) {
        const chunk = await reader.some(left)
        if (!chunk) throw new Error('supplier closed the connection inside a chunk')
        left -= chunk.length
        if (left === 0) afterData = true
        return chunk
      }
      // The CRLF after a chunk's data is read with the next size line, so a chunk is passed on as soon as it arrives.
      if (afterData) {
        if ((await reader.until(CRLF, 2, 'chunked body')).length) throw new Error('supplier sent a chunk longer than its size')
        afterData = false
      }
      const line = latin1.decode(await reader.until(CRLF, MAX_LINE, 'chunk size'))
      const size = line.split(';')[0]!.trim()
      if (!/^[0-9a-f]{1,12}$/i.test(size)) throw new Error(`supplier sent a malformed chunk size: ${JSON.stringify(line.slice(0, 40))}`)
      left = parseInt(size, 16)
      if (left === 0) {
        // Trailer fields up to the empty line; they are not passed on.
        while ((await reader.until(CRLF, MAX_LINE, 'chunk trailer')).length);
        ended = true
      }
    }
  }
}
