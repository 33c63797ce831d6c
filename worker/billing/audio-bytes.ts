/** Reading little binary headers: ASCII tags, fixed-width integers, and a windowed sequential reader. */
import type { ByteReader } from './audio-duration'

export function ascii(b: Uint8Array, at: number, length: number): string {
  return String.fromCharCode(...b.subarray(at, at + length))
}
const view = (b: Uint8Array) => new DataView(b.buffer, b.byteOffset, b.byteLength)
export const u32be = (b: Uint8Array, at: number) => view(b).getUint32(at)
export const u16le = (b: Uint8Array, at: number) => view(b).getUint16(at, true)
export const u32le = (b: Uint8Array, at: number) => view(b).getUint32(at, true)

/** Sequential reads in 1 MiB windows: walking a whole file costs one read per window, not per frame. */
export class Windowed {
  private start = 0
  private bytes: Uint8Array = new Uint8Array()

  constructor(private readonly r: ByteReader) {}

  /** Whether `length` bytes from `pos` are in the window (cheap: lets hot loops skip the await). */
  has(pos: number, length: number): boolean {
    return pos >= this.start && pos + length <= this.start + this.bytes.length
  }

  /** The bytes from `pos` on, at least `length` of them unless the file ends first. */
  async at(pos: number, length: number): Promise<{ b: Uint8Array; i: number }> {
    if (!this.has(pos, length)) {
      this.start = pos
      this.bytes = await this.r.read(pos, Math.max(1 << 20, length))
    }
    return this.now(pos)
  }

  /** The window and `pos` within it, once `has` said yes. */
  now(pos: number): { b: Uint8Array; i: number } {
    return { b: this.bytes, i: pos - this.start }
  }
}
