/**
 * How many seconds of audio a transcription holds money for: read from the uploaded file's container
 * header (audio-containers.ts: WAV, MP3, FLAC, Ogg; audio-boxes.ts: MP4/M4A, WebM/Matroska), with a
 * floor no header can talk down. Written here rather than taken from npm: music-metadata (the usual
 * choice) trusts the headers, which is the one thing a hold must not do, and brings ten packages.
 *
 * Suppliers bill what they decode: OpenAI's whisper-1 reports the decoded `duration` and times prices
 * bill its started minutes in full (relay-usage.ts), so a hold shorter than the real playable length
 * ends in debt. The rule:
 *
 *   held = max(header duration, audio bytes / the codec's highest honest byte rate)   when a header parses
 *   held = bytes / 1000 (8 kbit/s, as low as speech codecs go)                          otherwise
 *
 * - An honest file's header is the truth, and its bytes at the codec's highest byte rate (320 kbit/s
 *   MP3, 510 kbit/s Opus, the PCM rate for WAV and FLAC…) never play longer than it: honest files hold
 *   what they last, whatever their bitrate (a 6 kbit/s Opus of 10 minutes holds 600 s, not 112 s).
 * - A header claiming MORE than the bytes could hold is believed: only the user's own hold grows
 *   (capped at MAX_AUDIO_SECONDS so the amount stays a safe integer).
 * - A header claiming LESS than its content plays is a lie, and is overruled where the content can be
 *   counted cheaply (audio-frames.ts): MP3 holds its frame chain and Ogg Opus its packets' TOC
 *   durations (Vorbis: half the long block per packet), whatever Xing, VBRI or the last granule say.
 *   Ogg pages buried under more junk than that walk tries hold MAX_AUDIO_SECONDS.
 * - Elsewhere (FLAC STREAMINFO, MP4 mvhd, WebM Duration, compressed WAV) the floor replaces a claim
 *   below the bytes at the codec's highest rate. What such a lying header can still do: claim that
 *   floor while the stream is encoded far lower (or is mostly silence, which FLAC and Opus-in-WebM
 *   squeeze to a few bytes a second). The debt it leaves is at most (real length − floor) × price per
 *   request; counting those frames too (FLAC frame headers, MP4 sample tables, WebM blocks) would
 *   close it.
 * - WAV PCM is exact either way: every byte after the data chunk's start counts at the PCM rate.
 * The format is sniffed from the bytes, never from the client's file name or type.
 */
import { parseFlac, parseMp3, parseOgg, parseWav } from './audio-containers'
import { parseMp4, parseWebm } from './audio-boxes'

/** Random access to the uploaded file (a `File` in the relay, a buffer in tests). */
export interface ByteReader {
  size: number
  /** Up to `length` bytes from `start` (fewer at the end of the file, none past it). */
  read(start: number, length: number): Promise<Uint8Array>
}

/** What a container's header says. */
export interface ParsedAudio {
  format: 'wav' | 'mp3' | 'flac' | 'ogg-opus' | 'ogg-vorbis' | 'mp4' | 'webm'
  /** The duration the header claims. */
  seconds: number
  /** Bytes that may carry audio (the file without leading tags and metadata). */
  audioBytes: number
  /** The highest byte rate an honest stream of this codec has (bounds a lying header). */
  maxBytesPerSecond: number
}

/** Bytes per second assumed when no header can be read: 8 kbit/s, the low end of speech codecs. */
export const CONSERVATIVE_BYTES_PER_SECOND = 1000
/** At most ~11.6 days: larger claims hold this (no balance pays it) and keep amounts safe integers. */
export const MAX_AUDIO_SECONDS = 1_000_000

export function bufferReader(bytes: Uint8Array): ByteReader {
  return { size: bytes.length, read: async (start, length) => bytes.subarray(Math.max(0, start), Math.max(0, start + length)) }
}

export function blobReader(blob: Blob): ByteReader {
  return { size: blob.size, read: async (start, length) => new Uint8Array(await blob.slice(start, start + length).arrayBuffer()) }
}

const PARSERS = [parseWav, parseMp3, parseFlac, parseOgg, parseMp4, parseWebm]

/** The header's claim, or undefined when no parser reads the file. */
export async function parseAudioHeader(reader: ByteReader): Promise<ParsedAudio | undefined> {
  for (const parse of PARSERS) {
    let parsed: ParsedAudio | undefined
    try {
      parsed = await parse(reader)
    } catch {
      parsed = undefined
    }
    if (parsed && Number.isFinite(parsed.seconds) && parsed.seconds > 0 && parsed.maxBytesPerSecond > 0) return parsed
  }
  return undefined
}

/** The seconds of audio a transcription of this file holds money for (see the module header). */
export async function heldAudioSeconds(reader: ByteReader): Promise<number> {
  const parsed = await parseAudioHeader(reader)
  const seconds = parsed ? Math.max(parsed.seconds, parsed.audioBytes / parsed.maxBytesPerSecond) : reader.size / CONSERVATIVE_BYTES_PER_SECOND
  return Math.min(MAX_AUDIO_SECONDS, Math.ceil(seconds))
}
