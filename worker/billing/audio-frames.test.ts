/** Counting what a decoder plays: Opus packet durations, MP3 frame chains, and headers that lie about them. */
import { describe, expect, it } from 'vitest'
import { MP3_8K, MP3_128K, mp3File, opusPacketsFile } from '../test/audio-fixtures'
import { parseOgg } from './audio-containers'
import { bufferReader, heldAudioSeconds, MAX_AUDIO_SECONDS } from './audio-duration'
import { countMp3Seconds, countOggSamples, opusPacketSamples } from './audio-frames'

describe('opusPacketSamples', () => {
  it('reads the frame size from the config and the frame count from the code (RFC 6716 §3.1)', () => {
    expect(opusPacketSamples(0 << 3, undefined)).toBe(480) // SILK 10 ms
    expect(opusPacketSamples(3 << 3, undefined)).toBe(2880) // SILK 60 ms
    expect(opusPacketSamples((13 << 3) | 1, undefined)).toBe(1920) // hybrid 20 ms × 2
    expect(opusPacketSamples(16 << 3, undefined)).toBe(120) // CELT 2.5 ms
    expect(opusPacketSamples((31 << 3) | 3, 6)).toBe(5760) // CELT 20 ms × 6 frames
  })
})

describe('countOggSamples', () => {
  it('sums every audio packet past the two header packets', async () => {
    const file = opusPacketsFile({ pages: 10, packetsPerPage: 50, toc: 3 << 3, claimedSeconds: 1 })
    expect(await countOggSamples(bufferReader(file), { serial: 7, codec: 'opus', longBlock: 0 })).toBe(500 * 2880)
  })

  it('resyncs past junk between pages, as decoders do', async () => {
    const file = opusPacketsFile({ pages: 4, packetsPerPage: 10, toc: 1 << 3, claimedSeconds: 1 })
    // Junk of 'O's after the first audio page (head 47 + tags 44 + 67 bytes).
    const withJunk = new Uint8Array([...file.subarray(0, 158), ...new Uint8Array(5000).fill(0x4f), ...file.subarray(158)])
    expect(await countOggSamples(bufferReader(withJunk), { serial: 7, codec: 'opus', longBlock: 0 })).toBe(40 * 960)
  })

  it('bounds Vorbis packets by half the long block', async () => {
    const file = opusPacketsFile({ pages: 2, packetsPerPage: 10, toc: 0, claimedSeconds: 1 })
    // Read as Vorbis: 22 packets, 3 of them headers, 19 × 1024.
    expect(await countOggSamples(bufferReader(file), { serial: 7, codec: 'vorbis', longBlock: 2048 })).toBe(19 * 1024)
  })
})

describe('countMp3Seconds', () => {
  it('follows the frame chain and resyncs past junk', async () => {
    const frames = mp3File(MP3_8K, 100)
    const withJunk = new Uint8Array([...frames.subarray(0, 720), ...new Uint8Array(2_000_000), ...frames.subarray(720)])
    expect(await countMp3Seconds(bufferReader(withJunk), 0)).toBeCloseTo(7.2, 6)
  })

  it('counts the rest at 1000 bytes a second, the lowest MPEG audio rate, past 100,000 false syncs', async () => {
    const seconds = await countMp3Seconds(bufferReader(new Uint8Array(3_000_000).fill(0xff)), 0)
    expect(seconds).toBeCloseTo((3_000_000 - 100_000) / 1000, 0)
  })
})

describe('an Ogg stream buried in junk', () => {
  it('holds the most there is rather than count forever', async () => {
    const file = opusPacketsFile({ pages: 2, packetsPerPage: 10, toc: 0, claimedSeconds: 1 })
    const withJunk = new Uint8Array([...file.subarray(0, 158), ...new Uint8Array(200_000).fill(0x4f), ...file.subarray(158)])
    expect(await countOggSamples(bufferReader(withJunk), { serial: 7, codec: 'opus', longBlock: 0 })).toBeUndefined()
    expect(await heldAudioSeconds(bufferReader(withJunk))).toBe(MAX_AUDIO_SECONDS)
  })
})

describe('a header that lies its duration down', () => {
  it('is overruled by the Opus packets: 3,000 s of 60 ms packets claiming 10 s hold 3,000 s', async () => {
    const file = opusPacketsFile({ pages: 1000, packetsPerPage: 50, toc: 3 << 3, claimedSeconds: 10 })
    // ~227 KB: 32 kbit/s would have held 57 s, the Opus top rate 4 s.
    expect(file.length).toBeLessThan(230_000)
    expect((await parseOgg(bufferReader(file)))!.seconds).toBe(3000)
    expect(await heldAudioSeconds(bufferReader(file))).toBe(3000)
  })

  it('is overruled by the MP3 frames: a Xing tag claiming one frame of 2,400 holds them all', async () => {
    const file = mp3File(MP3_128K, 2400, { xingFrames: 1 })
    expect(await heldAudioSeconds(bufferReader(file))).toBe(Math.ceil((2400 * 1152) / 44_100))
  })
})
