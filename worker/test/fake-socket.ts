/**
 * An in-memory stand-in for a `cloudflare:sockets` Socket, for the proxy handshake and HTTP/1.1
 * tests: the test plays the far end (reads what the code wrote, writes the answer piece by piece)
 * and sees every connect() and startTls() call with its options. TLS is not simulated: the
 * upgraded socket carries the same bytes, which is what the code above it sees anyway.
 */
import type { Connect } from '../lib/proxy/tunnel'

interface FarEnd {
  /** Bytes the code wrote, as one string (latin1). */
  written(): string
  /** Raw bytes the code wrote. */
  bytes(): Uint8Array
  /** Resolves once the code has written at least `n` bytes in total. */
  waitFor(n: number): Promise<void>
  send(data: string | Uint8Array | number[]): Promise<void>
  end(): Promise<void>
  closed: boolean
}

interface FakeNetwork {
  connect: Connect
  connects: { address: SocketAddress; options: SocketOptions }[]
  tls: (TlsOptions | undefined)[]
  far: FarEnd[]
}

export function fakeNetwork(): FakeNetwork {
  const net: FakeNetwork = { connects: [], tls: [], far: [], connect: undefined as unknown as Connect }
  net.connect = (address, options) => {
    net.connects.push({ address, options })
    let inbound!: ReadableStreamDefaultController<Uint8Array>
    const readable = new ReadableStream<Uint8Array>({
      start(controller) {
        inbound = controller
      },
    })
    let out = new Uint8Array(0)
    const waiters: { n: number; resolve: () => void }[] = []
    const far: FarEnd = {
      closed: false,
      written: () => new TextDecoder('latin1').decode(out),
      bytes: () => out,
      waitFor: (n) => (out.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve }))),
      send: async (data) => inbound.enqueue(typeof data === 'string' ? Uint8Array.from(data, (c) => c.charCodeAt(0)) : Uint8Array.from(data)),
      end: async () => inbound.close(),
    }
    net.far.push(far)
    const writable = new WritableStream<Uint8Array>({
      write(chunk) {
        const next = new Uint8Array(out.length + chunk.length)
        next.set(out)
        next.set(chunk, out.length)
        out = next
        for (const w of waiters.splice(0))
          if (out.length >= w.n) w.resolve()
          else waiters.push(w)
      },
    })
    const socket = (readable: ReadableStream<Uint8Array>, w: WritableStream<Uint8Array>): Socket =>
      ({
        readable,
        writable: w,
        opened: Promise.resolve({}),
        closed: new Promise(() => undefined),
        upgraded: false,
        secureTransport: options.secureTransport ?? 'off',
        close: async () => {
          far.closed = true
        },
        startTls: (tlsOptions?: TlsOptions) => {
          net.tls.push(tlsOptions)
          return socket(readable, w)
        },
      }) as unknown as Socket
    return socket(readable, writable)
  }
  return net
}
