/**
 * A buffered reader over a socket's byte stream for the proxy handshakes and the HTTP/1.1 response
 * head: read up to a delimiter or an exact count, then hand the remaining bytes and the rest of the
 * stream on without copying the stream into memory.
 */

export class ByteReader {
  private buf: Uint8Array = new Uint8Array(0)
  private ended = false

  constructor(private readonly reader: ReadableStreamDefaultReader<Uint8Array>) {}

  /** Reads one more chunk into the buffer; false at the end of the stream. */
  async fill(): Promise<boolean> {
    if (this.ended) return false
    const { done, value } = await this.reader.read()
    if (done) {
      this.ended = true
      return false
    }
    if (value.length) {
      const next = new Uint8Array(this.buf.length + value.length)
      next.set(this.buf)
      next.set(value, this.buf.length)
      this.buf = next
    }
    return true
  }

  /** Exactly `n` bytes (throws `what` when the stream ends first). */
  async exact(n: number, what: string): Promise<Uint8Array> {
    while (this.buf.length < n) if (!(await this.fill())) throw new Error(`${what}: connection closed early`)
    return this.take(n)
  }

  /**
   * The bytes before `delim` (which is consumed too); throws when more than `max` bytes come
   * without it or the stream ends first.
   */
  async until(delim: Uint8Array, max: number, what: string): Promise<Uint8Array> {
    let from = 0
    for (;;) {
      const at = indexOf(this.buf, delim, from)
      if (at >= 0) {
        const out = this.take(at)
        this.take(delim.length)
        return out
      }
      if (this.buf.length > max) throw new Error(`${what}: more than ${max} bytes without an end`)
      from = Math.max(0, this.buf.length - delim.length + 1)
      if (!(await this.fill())) throw new Error(`${what}: connection closed early`)
    }
  }

  /** Up to `max` bytes: buffered ones first, else the next chunk; undefined at the end. */
  async some(max: number): Promise<Uint8Array | undefined> {
    if (!this.buf.length && !(await this.fill())) return undefined
    return this.take(Math.min(max, this.buf.length))
  }

  /** Stops reading: the underlying stream is cancelled. */
  cancel(): void {
    this.reader.cancel().catch(() => undefined)
  }

  /** Gives the stream back (before a TLS upgrade); throws if unread bytes would be lost. */
  release(what: string): void {
    if (this.buf.length) throw new Error(`${what}: unexpected bytes after the answer`)
    this.reader.releaseLock()
  }

  private take(n: number): Uint8Array {
    const out = this.buf.subarray(0, n)
    this.buf = this.buf.subarray(n)
    return out
  }
}

function indexOf(hay: Uint8Array, needle: Uint8Array, from: number): number {
  outer: for (let i = from; i + needle.length <= hay.length; i++) {
    for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer
    return i
  }
  return -1
}
