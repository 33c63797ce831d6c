/**
 * Duration headers of the nested-element audio containers: MP4/M4A (the movie header `mvhd`:
 * duration / timescale) and WebM/Matroska (Segment Info: Duration × TimecodeScale). Same contract as
 * audio-containers.ts: what the header claims and the codec's highest honest byte rate.
 */
import { ascii, u32be } from './audio-bytes'
import type { ByteReader, ParsedAudio } from './audio-duration'

/** AAC stays below 6144 bits per channel per 1024 samples (576 kbit/s for 48 kHz stereo): 768 kbit/s is ample. */
const MP4_MAX_BYTES_PER_SECOND = 96_000
/** WebM audio is Opus or Vorbis: at most 510 kbit/s per stereo stream. */
const WEBM_MAX_BYTES_PER_SECOND = 64_000

interface Box {
  type: string
  start: number
  /** Where the box's content starts. */
  body: number
  end: number
}

async function boxAt(r: ByteReader, pos: number, limit: number): Promise<Box | undefined> {
  const h = await r.read(pos, 16)
  if (h.length < 8) return undefined
  let size = u32be(h, 0)
  let body = pos + 8
  if (size === 1) {
    if (h.length < 16) return undefined
    size = u32be(h, 8) * 2 ** 32 + u32be(h, 12)
    body = pos + 16
  } else if (size === 0) size = limit - pos
  if (size < body - pos) return undefined
  return { type: ascii(h, 4, 4), start: pos, body, end: Math.min(limit, pos + size) }
}

async function findBox(r: ByteReader, from: number, to: number, type: string): Promise<Box | undefined> {
  for (let pos = from; pos < to; ) {
    const box = await boxAt(r, pos, to)
    if (!box) return undefined
    if (box.type === type) return box
    pos = box.end
  }
  return undefined
}

export async function parseMp4(r: ByteReader): Promise<ParsedAudio | undefined> {
  const ftyp = await boxAt(r, 0, r.size)
  if (ftyp?.type !== 'ftyp') return undefined
  const moov = await findBox(r, ftyp.end, r.size, 'moov')
  const mvhd = moov && (await findBox(r, moov.body, moov.end, 'mvhd'))
  if (!moov || !mvhd) return undefined
  const m = await r.read(mvhd.body, 32)
  const v1 = m[0] === 1
  if (m.length < (v1 ? 32 : 20)) return undefined
  const timescale = u32be(m, v1 ? 20 : 12)
  const duration = v1 ? u32be(m, 24) * 2 ** 32 + u32be(m, 28) : u32be(m, 16)
  if (!timescale || duration === 0xffffffff || (v1 && u32be(m, 24) === 0xffffffff)) return undefined
  // The movie box holds the tables and any cover art, not audio.
  const audioBytes = r.size - (moov.end - moov.start)
  return { format: 'mp4', seconds: duration / timescale, audioBytes, maxBytesPerSecond: MP4_MAX_BYTES_PER_SECOND }
}

const EBML = 0x1a45dfa3
const SEGMENT = 0x18538067
const INFO = 0x1549a966
const CLUSTER = 0x1f43b675
const TIMECODE_SCALE = 0x2ad7b1
const DURATION = 0x4489

interface Element {
  id: number
  body: number
  /** undefined: unknown size (live recordings). */
  end?: number
}

/** An EBML variable-length integer: its length from the leading zeros, the marker kept for IDs. */
function vint(b: Uint8Array, at: number, keepMarker: boolean): { value: number; length: number; allOnes: boolean } | undefined {
  const first = b[at]
  if (first === undefined || first === 0) return undefined
  const length = Math.clz32(first) - 23
  if (at + length > b.length) return undefined
  let value = keepMarker ? first : first & (0xff >> length)
  let allOnes = value === 0xff >> length
  for (let i = 1; i < length; i++) {
    value = value * 256 + b[at + i]!
    allOnes &&= b[at + i] === 0xff
  }
  return { value, length, allOnes }
}

async function elementAt(r: ByteReader, pos: number): Promise<Element | undefined> {
  const h = await r.read(pos, 12)
  const id = vint(h, 0, true)
  const size = id && id.length <= 4 ? vint(h, id.length, false) : undefined
  if (!id || !size) return undefined
  const body = pos + id.length + size.length
  return { id: id.value, body, end: size.allOnes ? undefined : body + size.value }
}

function readUint(b: Uint8Array): number {
  return b.reduce((v, byte) => v * 256 + byte, 0)
}

function readFloat(b: Uint8Array): number | undefined {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength)
  if (b.length === 4) return v.getFloat32(0)
  if (b.length === 8) return v.getFloat64(0)
  return undefined
}

export async function parseWebm(r: ByteReader): Promise<ParsedAudio | undefined> {
  const header = await elementAt(r, 0)
  if (header?.id !== EBML || header.end === undefined) return undefined
  const segment = await elementAt(r, header.end)
  if (segment?.id !== SEGMENT) return undefined
  const segmentEnd = Math.min(r.size, segment.end ?? r.size)
  let scale = 1_000_000
  let duration: number | undefined
  for (let pos = segment.body; pos < segmentEnd; ) {
    const el = await elementAt(r, pos)
    // Clusters hold the audio; the Info element comes before them (and unknown sizes can't be skipped).
    if (!el || el.id === CLUSTER || el.end === undefined) break
    if (el.id === INFO) {
      for (let p = el.body; p < el.end; ) {
        const child = await elementAt(r, p)
        if (!child?.end) break
        const small = child.end - child.body <= 8
        if (small && child.id === TIMECODE_SCALE) scale = readUint(await r.read(child.body, child.end - child.body)) || scale
        if (small && child.id === DURATION) duration = readFloat(await r.read(child.body, child.end - child.body))
        p = child.end
      }
      break
    }
    pos = el.end
  }
  if (duration === undefined) return undefined
  return { format: 'webm', seconds: (duration * scale) / 1e9, audioBytes: r.size, maxBytesPerSecond: WEBM_MAX_BYTES_PER_SECOND }
}
