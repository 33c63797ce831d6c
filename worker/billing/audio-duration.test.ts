/** The seconds a transcription holds: the header when it is plausible, a floor no header talks down. */
import { describe, expect, it } from 'vitest'
import { flacFile, MP3_128K, mp3File, mp4File, oggFile, wavFile, webmFile } from '../test/audio-fixtures'
import { blobReader, bufferReader, heldAudioSeconds, MAX_AUDIO_SECONDS } from './audio-duration'

const held = (bytes: Uint8Array) => heldAudioSeconds(bufferReader(bytes))

describe('heldAudioSeconds', () => {
  it('holds a 6 kbit/s Opus file of 10 minutes (~450 KB) for 600 s, not the 112 s 32 kbit/s assumed', async () => {
    const file = oggFile({ codec: 'opus', seconds: 600, totalBytes: 450_000 })
    expect(file.length).toBeGreaterThan(440_000)
    expect(await held(file)).toBe(600)
  })

  it('holds an honest high-bitrate file for its own length, not bytes / 1000', async () => {
    // 3 minutes of 128 kbit/s MP3 is 2.9 MB: bytes / 1000 would hold 48 minutes.
    const frames = Math.floor((180 * 44_100) / 1152)
    expect(await held(mp3File(MP3_128K, frames))).toBe(180)
    expect(await held(wavFile({ rate: 16_000, channels: 1, bits: 16, dataBytes: 32_000 * 45 }))).toBe(45)
    expect(await held(flacFile({ rate: 16_000, channels: 1, bits: 16, totalSamples: 16_000 * 300, audioBytes: 5_000_000, pictureBytes: 500_000 }))).toBe(300)
    expect(await held(mp4File({ timescale: 48_000, duration: 48_000 * 120, audioBytes: 1_000_000 }))).toBe(120)
    expect(await held(webmFile({ duration: 61_200, clusterBytes: 250_000 }))).toBe(62)
  })

  it('never holds less than the bytes at the codec’s highest rate, whatever the header claims (MP3 and Ogg are counted: audio-frames.test.ts)', async () => {
    // An Opus file of 2 MB claiming 10 s: even at 510 kbit/s it plays 31.25 s.
    expect(await held(oggFile({ codec: 'opus', seconds: 10, totalBytes: 2_000_000 }))).toBe(32)
    // A FLAC claiming 1 s for 3.2 MB of 16 kHz mono: verbatim frames would still play 90.9 s.
    expect(await held(flacFile({ rate: 16_000, channels: 1, bits: 16, totalSamples: 16_000, audioBytes: 3_200_000 }))).toBe(91)
    // An M4A claiming 1 ms for 959 kB: at 768 kbit/s it plays 10 s.
    expect(await held(mp4File({ timescale: 1000, duration: 1, audioBytes: 959_000 }))).toBe(10)
  })

  it('believes a header claiming more than the bytes hold, up to the cap', async () => {
    expect(await held(mp4File({ timescale: 1, duration: 7200, audioBytes: 10_000 }))).toBe(7200)
    expect(await held(mp4File({ timescale: 1, duration: 2 ** 31, audioBytes: 10 }))).toBe(MAX_AUDIO_SECONDS)
  })

  it('holds unknown or unreadable files at 1 kB/s', async () => {
    expect(await held(new Uint8Array(450_000))).toBe(450)
    expect(await held(webmFile({ clusterBytes: 300_000 }))).toBe(Math.ceil((300_000 + 80) / 1000))
    const truncated = wavFile({ rate: 16_000, channels: 1, bits: 16, dataBytes: 0 }).subarray(0, 30)
    expect(await held(truncated)).toBe(1)
    expect(await held(new Uint8Array())).toBe(0)
  })

  it('reads a File through slices (what the relay hands it)', async () => {
    const file = new File([oggFile({ codec: 'opus', seconds: 75, totalBytes: 60_000 })], 'voice.ogg', { type: 'audio/ogg' })
    expect(await heldAudioSeconds(blobReader(file))).toBe(75)
  })
})
