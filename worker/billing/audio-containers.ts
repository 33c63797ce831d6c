/**
 * Duration headers of the byte-stream audio containers: WAV (RIFF fmt + data), MP3 (Xing/Info or VBRI
 * frame count, else the first frame's bitrate), FLAC (STREAMINFO) and Ogg (Opus or Vorbis: the last
 * page's granule position). Each parser returns the duration (for MP3 and Ogg the larger of the claim
 * and the frames or packets counted by audio-frames.ts) and the codec's highest honest byte rate, or
 * undefined when the bytes are not its format; audio-duration.ts decides what to hold.
 */
import { type ByteReader, MAX_AUDIO_SECONDS, type ParsedAudio } from './audio-duration'
import { ascii, u16le, u32be, u32le } from './audio-bytes'
import { countMp3Seconds, countOggSamples, mp3Frame, type Mp3Frame } from './audio-frames'

// ---- WAV ----

/** PCM, IEEE float, A-law and µ-law: the decoder plays exactly sample rate × block align bytes a second. */
const PCM_TAGS = new Set([1, 3, 6, 7])
/** Compressed WAV codecs (ADPCM, GSM…) stay below 16-bit stereo 48 kHz PCM. */
const WAV_COMPRESSED_MAX_BYTES_PER_SECOND = 192_000

export async function parseWav(r: ByteReader): Promise<ParsedAudio | undefined> {
  const head = await r.read(0, 12)
  if (head.length < 12 || ascii(head, 0, 4) !== 'RIFF' || ascii(head, 8, 4) !== 'WAVE') return undefined
  let fmt: { tag: number; rate: number; byteRate: number; blockAlign: number } | undefined
  for (let pos = 12; pos + 8 <= r.size; ) {
    const chunk = await r.read(pos, 8)
    const id = ascii(chunk, 0, 4)
    const size = u32le(chunk, 4)
    if (id === 'fmt ') {
      const f = await r.read(pos + 8, Math.min(size, 40))
      if (f.length < 16) return undefined
      const extensible = u16le(f, 0) === 0xfffe && f.length >= 26
      fmt = { tag: extensible ? u16le(f, 24) : u16le(f, 0), rate: u32le(f, 4), byteRate: u32le(f, 8), blockAlign: u16le(f, 12) }
    } else if (id === 'data') {
      if (!fmt) return undefined
      // Every byte after the data chunk's start: a decoder may read past a short size field or find further data chunks.
      const audioBytes = r.size - (pos + 8)
      const pcmRate = fmt.rate * fmt.blockAlign
      if (PCM_TAGS.has(fmt.tag)) return pcmRate > 0 ? { format: 'wav', seconds: audioBytes / pcmRate, audioBytes, maxBytesPerSecond: pcmRate } : undefined
      if (!fmt.byteRate) return undefined
      return { format: 'wav', seconds: Math.min(size, audioBytes) / fmt.byteRate, audioBytes, maxBytesPerSecond: WAV_COMPRESSED_MAX_BYTES_PER_SECOND }
    }
    pos += 8 + size + (size & 1)
  }
  return undefined
}

// ---- MP3 ----

/** Where the audio starts after any ID3v2 tags. */
export async function skipId3(r: ByteReader): Promise<number> {
  let pos = 0
  for (;;) {
    const h = await r.read(pos, 10)
    if (h.length < 10 || ascii(h, 0, 3) !== 'ID3') return pos
    const size = ((h[6]! & 0x7f) << 21) | ((h[7]! & 0x7f) << 14) | ((h[8]! & 0x7f) << 7) | (h[9]! & 0x7f)
    pos += 10 + size + (h[5]! & 0x10 ? 10 : 0)
  }
}

/** How far past the tags the first frame may start (encoders pad a little). */
const MP3_SYNC_WINDOW = 4096

export async function parseMp3(r: ByteReader): Promise<ParsedAudio | undefined> {
  const start = await skipId3(r)
  const window = await r.read(start, MP3_SYNC_WINDOW + 2048)
  let at = -1
  let frame: Mp3Frame | undefined
  for (let i = 0; i < Math.min(window.length, MP3_SYNC_WINDOW) && at < 0; i++) {
    frame = mp3Frame(window, i)
    // A real stream has a second frame right after the first (a stray 0xFFE… in a tag does not).
    if (frame && (i + frame.length >= window.length || mp3Frame(window, i + frame.length))) at = i
  }
  const f = frame
  if (!f || at < 0) return undefined
  const tail = await r.read(r.size - 128, 128)
  const audioBytes = r.size - start - at - (tail.length === 128 && ascii(tail, 0, 3) === 'TAG' ? 128 : 0)
  const result = (seconds: number): ParsedAudio => ({ format: 'mp3', seconds, audioBytes, maxBytesPerSecond: f.maxBitrate / 8 })
  const frames = (countAt: number) => (countAt + 4 <= window.length ? (u32be(window, countAt) * f.samples) / f.rate : undefined)
  const tag = ascii(window, f.xingAt, 4)
  const xing = (tag === 'Xing' || tag === 'Info') && f.xingAt + 8 <= window.length && u32be(window, f.xingAt + 4) & 1 ? frames(f.xingAt + 8) : undefined
  const vbri = ascii(window, at + 36, 4) === 'VBRI' ? frames(at + 36 + 14) : undefined
  const claimed = xing ?? vbri ?? (audioBytes * 8) / f.bitrate
  return result(Math.max(claimed, await countMp3Seconds(r, start + at)))
}

// ---- FLAC ----

/** A frame stored verbatim holds the PCM plus its frame header: allow 10 % above the PCM rate. */
const FLAC_OVERHEAD = 1.1

export async function parseFlac(r: ByteReader): Promise<ParsedAudio | undefined> {
  let pos = await skipId3(r)
  if (ascii(await r.read(pos, 4), 0, 4) !== 'fLaC') return undefined
  pos += 4
  let info: { rate: number; channels: number; bits: number; total: number } | undefined
  for (let last = false; !last; ) {
    const h = await r.read(pos, 4)
    if (h.length < 4) return undefined
    last = (h[0]! & 0x80) !== 0
    const size = (h[1]! << 16) | (h[2]! << 8) | h[3]!
    if ((h[0]! & 0x7f) === 0) {
      const s = await r.read(pos + 4, 34)
      if (s.length < 18) return undefined
      info = {
        rate: (s[10]! << 12) | (s[11]! << 4) | (s[12]! >> 4),
        channels: ((s[12]! >> 1) & 7) + 1,
        bits: (((s[12]! & 1) << 4) | (s[13]! >> 4)) + 1,
        total: (s[13]! & 0x0f) * 2 ** 32 + u32be(s, 14),
      }
    }
    pos += 4 + size
  }
  if (!info?.rate) return undefined
  return {
    format: 'flac',
    seconds: info.total / info.rate,
    audioBytes: Math.max(0, r.size - pos),
    maxBytesPerSecond: ((info.rate * info.channels * info.bits) / 8) * FLAC_OVERHEAD,
  }
}

// ---- Ogg ----

/** The largest Ogg page: 27 header bytes, 255 lacing values, 255 × 255 body bytes. */
const MAX_OGG_PAGE = 27 + 255 + 255 * 255
/** Opus tops out at 510 kbit/s per stereo stream; Vorbis stays below it too. */
const OGG_MAX_BYTES_PER_SECOND_PER_PAIR = 64_000

export async function parseOgg(r: ByteReader): Promise<ParsedAudio | undefined> {
  const first = await r.read(0, 27 + 255 + 32)
  if (first.length < 28 || ascii(first, 0, 4) !== 'OggS') return undefined
  const serial = u32le(first, 14)
  const body = first.subarray(27 + first[26]!)
  let codec: { format: 'ogg-opus' | 'ogg-vorbis'; rate: number; skip: number; channels: number; longBlock: number }
  if (ascii(body, 0, 8) === 'OpusHead' && body.length >= 19) codec = { format: 'ogg-opus', rate: 48_000, skip: u16le(body, 10), channels: body[9]!, longBlock: 0 }
  else if (ascii(body, 0, 7) === '\x01vorbis' && body.length >= 29) {
    codec = { format: 'ogg-vorbis', rate: u32le(body, 12), skip: 0, channels: body[11]!, longBlock: 2 ** (body[28]! >> 4) }
  } else return undefined
  if (!codec.rate) return undefined
  const granule = await lastGranule(r, serial)
  const counted = await countOggSamples(r, { serial, codec: codec.format === 'ogg-opus' ? 'opus' : 'vorbis', longBlock: codec.longBlock })
  // Pages hidden in that much junk are beyond counting: hold the most there is.
  const samples = counted === undefined ? MAX_AUDIO_SECONDS * codec.rate : Math.max(granule ?? 0, counted) - codec.skip
  return {
    format: codec.format,
    seconds: Math.max(0, samples) / codec.rate,
    audioBytes: r.size,
    maxBytesPerSecond: OGG_MAX_BYTES_PER_SECOND_PER_PAIR * Math.max(1, Math.ceil(codec.channels / 2)),
  }
}

/** The granule position of the stream's last page that ends a packet (the claimed total), if any. */
async function lastGranule(r: ByteReader, serial: number): Promise<number | undefined> {
  const tailStart = Math.max(0, r.size - 2 * MAX_OGG_PAGE)
  const tail = await r.read(tailStart, r.size - tailStart)
  for (let i = tail.length - 27; i >= 0; i--) {
    if (tail[i] !== 0x4f || ascii(tail, i, 4) !== 'OggS' || u32le(tail, i + 14) !== serial) continue
    const low = u32le(tail, i + 6)
    const high = u32le(tail, i + 10)
    if (low !== 0xffffffff || high !== 0xffffffff) return high * 2 ** 32 + low
  }
  return undefined
}
