/**
 * Counting what a decoder plays, frame by frame, where that is cheap: MP3 frames (each header names
 * its samples) and Ogg Opus packets (each TOC byte names its duration; Vorbis packets at most half the
 * long block). A header's duration claim can lie; these counts follow the bytes a decoder reads, so
 * audio-containers.ts holds the larger of the two.
 */
import { u32le, Windowed } from './audio-bytes'
import type { ByteReader } from './audio-duration'

/** kbit/s by bitrate index: MPEG-1 layers I–III, then MPEG-2/2.5 layer I and layers II/III. */
const BITRATES = {
  v1l1: [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
  v1l2: [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
  v1l3: [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  v2l1: [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
  v2l23: [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] }

export interface Mp3Frame {
  bitrate: number
  maxBitrate: number
  rate: number
  samples: number
  length: number
  /** Offset of a Xing/Info tag in this frame (after the side information). */
  xingAt: number
}

export function mp3Frame(b: Uint8Array, i: number): Mp3Frame | undefined {
  if (i + 4 > b.length || b[i] !== 0xff || (b[i + 1]! & 0xe0) !== 0xe0) return undefined
  const version = (b[i + 1]! >> 3) & 3 // 3 MPEG-1, 2 MPEG-2, 0 MPEG-2.5
  const layer = (b[i + 1]! >> 1) & 3 // 3 layer I, 2 layer II, 1 layer III
  const bitrateIndex = b[i + 2]! >> 4
  const rateIndex = (b[i + 2]! >> 2) & 3
  // Free-format (index 0) frames have no size in their header: treated as unreadable.
  if (version === 1 || layer === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return undefined
  const v1 = version === 3
  const table = v1 ? [BITRATES.v1l3, BITRATES.v1l2, BITRATES.v1l1][layer - 1]! : layer === 3 ? BITRATES.v2l1 : BITRATES.v2l23
  const bitrate = table[bitrateIndex]! * 1000
  const rate = SAMPLE_RATES[version]![rateIndex]!
  const padding = (b[i + 2]! >> 1) & 1
  const samples = layer === 3 ? 384 : layer === 1 && !v1 ? 576 : 1152
  const length = layer === 3 ? (Math.floor((12 * bitrate) / rate) + padding) * 4 : Math.floor(((samples / 8) * bitrate) / rate) + padding
  const mono = b[i + 3]! >> 6 === 3
  return { bitrate, maxBitrate: table[14]! * 1000, rate, samples, length, xingAt: i + 4 + (v1 ? (mono ? 17 : 32) : mono ? 9 : 17) }
}

/** Failed sync candidates a walk tries before giving up on the rest (bounds the CPU a hostile file costs). */
const MAX_RESYNC_CANDIDATES = 100_000

/**
 * Seconds of MPEG audio from `start` on: every frame in the chain, resyncing past junk as decoders
 * do. Past MAX_RESYNC_CANDIDATES the rest counts at 1000 bytes a second, the lowest rate MPEG audio has.
 */
export async function countMp3Seconds(r: ByteReader, start: number): Promise<number> {
  const w = new Windowed(r)
  let seconds = 0
  let failed = 0
  for (let pos = start; pos + 4 <= r.size; ) {
    const { b, i } = w.has(pos, 4) ? w.now(pos) : await w.at(pos, 4)
    const frame = mp3Frame(b, i)
    if (frame) {
      seconds += frame.samples / frame.rate
      pos += frame.length
      continue
    }
    if (++failed > MAX_RESYNC_CANDIDATES) return seconds + (r.size - pos) / 1000
    const next = b.indexOf(0xff, i + 1)
    pos += next < 0 ? b.length - i : next - i
  }
  return seconds
}

/** Opus frame sizes in samples at 48 kHz by config: SILK 10–60 ms, hybrid 10–20 ms, CELT 2.5–20 ms. */
const SILK_FRAMES = [480, 960, 1920, 2880]
const HYBRID_FRAMES = [480, 960]
const CELT_FRAMES = [120, 240, 480, 960]

/** Samples at 48 kHz in one Opus packet (RFC 6716 §3.1): frame size from the config, frames from the code. */
export function opusPacketSamples(toc: number, second: number | undefined): number {
  const config = toc >> 3
  const frame = config < 12 ? SILK_FRAMES[config & 3]! : config < 16 ? HYBRID_FRAMES[config & 1]! : CELT_FRAMES[config & 3]!
  const code = toc & 3
  const frames = code === 0 ? 1 : code < 3 ? 2 : (second ?? 0) & 0x3f
  return frame * frames
}

export interface OggStream {
  serial: number
  codec: 'opus' | 'vorbis'
  /** Vorbis: the long block size (a packet plays at most half of it). */
  longBlock: number
}

/**
 * Samples the stream's audio packets decode to (Opus: exact; Vorbis: at most), walking every page and
 * resyncing on `OggS` past junk. The header packets (Opus 2, Vorbis 3) count nothing. Undefined when
 * the junk has more than MAX_RESYNC_CANDIDATES false starts: no honest file has any.
 */
export async function countOggSamples(r: ByteReader, stream: OggStream): Promise<number | undefined> {
  const w = new Windowed(r)
  const headers = stream.codec === 'opus' ? 2 : 3
  let packets = 0
  let samples = 0
  let continued = false
  let failed = 0
  for (let pos = 0; pos + 27 <= r.size; ) {
    const { b, i } = w.has(pos, 27 + 255) ? w.now(pos) : await w.at(pos, 27 + 255)
    if (b[i] !== 0x4f || b[i + 1] !== 0x67 || b[i + 2] !== 0x67 || b[i + 3] !== 0x53) {
      if (++failed > MAX_RESYNC_CANDIDATES) return undefined
      const next = b.indexOf(0x4f, i + 1)
      pos += next < 0 ? b.length - i : next - i
      continue
    }
    const segments = b[i + 26]!
    const lacing = b.subarray(i + 27, i + 27 + segments)
    const bodyLength = lacing.reduce((n, v) => n + v, 0)
    const bodyAt = pos + 27 + segments
    const mine = u32le(b, i + 14) === stream.serial
    if (mine) {
      const { b: body, i: at } = w.has(bodyAt, bodyLength) ? w.now(bodyAt) : await w.at(bodyAt, bodyLength)
      // A packet starts where the previous one ended, unless this page continues one.
      let starts = !(b[i + 5]! & 1) || !continued
      for (let s = 0, offset = 0; s < lacing.length; offset += lacing[s]!, s++) {
        if (starts && lacing[s]! > 0) {
          if (packets++ >= headers) {
            samples += stream.codec === 'opus' ? opusPacketSamples(body[at + offset]!, body[at + offset + 1]) : stream.longBlock / 2
          }
        } else if (starts) packets++
        starts = lacing[s]! < 255
      }
      continued = segments > 0 && lacing[segments - 1] === 255
    }
    pos = bodyAt + bodyLength
  }
  return samples
}
