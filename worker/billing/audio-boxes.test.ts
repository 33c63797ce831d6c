/** MP4/M4A and WebM/Matroska duration headers. */
import { describe, expect, it } from 'vitest'
import { mp4File, webmFile } from '../test/audio-fixtures'
import { parseMp4, parseWebm } from './audio-boxes'
import { bufferReader } from './audio-duration'

describe('MP4 / M4A', () => {
  it('reads mvhd duration / timescale (version 0), not counting the movie box as audio', async () => {
    const parsed = await parseMp4(bufferReader(mp4File({ timescale: 44_100, duration: 44_100 * 61, audioBytes: 50_000, coverBytes: 90_000 })))
    expect(parsed).toMatchObject({ format: 'mp4', seconds: 61, maxBytesPerSecond: 96_000 })
    expect(parsed!.audioBytes).toBeLessThan(50_100)
  })

  it('reads a version 1 mvhd with a 64-bit duration, and a movie box after the media data', async () => {
    const parsed = await parseMp4(bufferReader(mp4File({ timescale: 1000, duration: 2 ** 32 + 500, audioBytes: 1000, version: 1, moovLast: true })))
    expect(parsed!.seconds).toBeCloseTo((2 ** 32 + 500) / 1000, 6)
  })

  it('refuses an unknown duration', async () => {
    expect(await parseMp4(bufferReader(mp4File({ timescale: 1000, duration: 0xffffffff, audioBytes: 10 })))).toBeUndefined()
  })
})

describe('WebM / Matroska', () => {
  it('reads Segment Info Duration × TimecodeScale (float64, past other Info fields)', async () => {
    expect(await parseWebm(bufferReader(webmFile({ duration: 93_500, clusterBytes: 1000 })))).toMatchObject({ format: 'webm', seconds: 93.5 })
  })

  it('reads a float32 Duration under a custom TimecodeScale', async () => {
    expect((await parseWebm(bufferReader(webmFile({ duration: 250, float32: true, timecodeScale: 100_000_000, clusterBytes: 10 }))))!.seconds).toBe(25)
  })

  it('has nothing to say for a live recording without Duration', async () => {
    expect(await parseWebm(bufferReader(webmFile({ clusterBytes: 5000 })))).toBeUndefined()
  })
})
