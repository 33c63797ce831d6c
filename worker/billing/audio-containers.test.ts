/** Each container's header read for its duration, and what a lying or odd header gets. */
import { describe, expect, it } from 'vitest'
import { flacFile, MP3_128K, MP3_8K, mp3File, oggFile, wavFile } from '../test/audio-fixtures'
import { parseFlac, parseMp3, parseOgg, parseWav } from './audio-containers'
import { bufferReader } from './audio-duration'

const read = bufferReader

describe('WAV', () => {
  it('reads PCM from the sample rate and block align, over every byte after the data chunk start', async () => {
    const file = wavFile({ rate: 16_000, channels: 1, bits: 16, dataBytes: 32_000 * 7 })
    expect(await parseWav(read(file))).toMatchObject({ format: 'wav', seconds: 7, maxBytesPerSecond: 32_000 })
  })

  it('ignores a byte-rate field that lies for PCM, and a data size that stops short', async () => {
    const file = wavFile({ rate: 8000, channels: 1, bits: 8, dataBytes: 8000 * 30, byteRate: 8_000_000, dataSizeField: 8000 })
    expect((await parseWav(read(file)))!.seconds).toBe(30)
  })

  it('reads a compressed WAV from its byte rate, with the PCM ceiling as the plausible maximum', async () => {
    const file = wavFile({ rate: 8000, channels: 1, bits: 4, tag: 0x11, byteRate: 4055, dataBytes: 4055 * 20 })
    expect(await parseWav(read(file))).toMatchObject({ seconds: 20, maxBytesPerSecond: 192_000 })
  })

  it('is not fooled by other RIFF files', async () => {
    const avi = wavFile({ rate: 8000, channels: 1, bits: 8, dataBytes: 10 })
    avi.set(new TextEncoder().encode('AVI '), 8)
    expect(await parseWav(read(avi))).toBeUndefined()
  })
})

describe('MP3', () => {
  it('counts the Xing frames of a VBR file, after an ID3v2 tag with cover art', async () => {
    const file = mp3File(MP3_128K, 20, { id3: 300_000, xingFrames: 5000 })
    const parsed = await parseMp3(read(file))
    expect(parsed).toMatchObject({ format: 'mp3', maxBytesPerSecond: 40_000, audioBytes: 20 * 417 })
    expect(parsed!.seconds).toBeCloseTo((5000 * 1152) / 44_100, 6)
  })

  it('counts the VBRI frames', async () => {
    const parsed = await parseMp3(read(mp3File(MP3_128K, 10, { vbriFrames: 2000 })))
    expect(parsed!.seconds).toBeCloseTo((2000 * 1152) / 44_100, 6)
  })

  it('reads a CBR file from its first frame bitrate (an 8 kbit/s MPEG-2.5 file of 72 s)', async () => {
    const parsed = await parseMp3(read(mp3File(MP3_8K, 1000)))
    expect(parsed).toMatchObject({ maxBytesPerSecond: 20_000 })
    expect(parsed!.seconds).toBeCloseTo(72, 6)
  })

  it('needs two frames in a row, so random bytes are no MP3', async () => {
    const noise = new Uint8Array(5000)
    noise.set([0xff, 0xfb, 0x90, 0x00], 100)
    expect(await parseMp3(read(noise))).toBeUndefined()
  })
})

describe('FLAC', () => {
  it('reads STREAMINFO total samples / rate, and counts the audio after the metadata blocks', async () => {
    const file = flacFile({ rate: 16_000, channels: 1, bits: 16, totalSamples: 16_000 * 95, audioBytes: 1_000_000, pictureBytes: 200_000 })
    const parsed = await parseFlac(read(file))
    expect(parsed).toMatchObject({ format: 'flac', seconds: 95, audioBytes: 1_000_000 })
    expect(parsed!.maxBytesPerSecond).toBeCloseTo(32_000 * 1.1, 6)
  })

  it('reads totals past 32 bits', async () => {
    const parsed = await parseFlac(read(flacFile({ rate: 192_000, channels: 2, bits: 24, totalSamples: 2 ** 33, audioBytes: 10 })))
    expect(parsed!.seconds).toBeCloseTo(2 ** 33 / 192_000, 6)
  })
})

describe('Ogg', () => {
  it('reads Opus from the last granule position minus the pre-skip, at 48 kHz', async () => {
    const parsed = await parseOgg(read(oggFile({ codec: 'opus', seconds: 42.5, totalBytes: 50_000, preSkip: 3840 })))
    expect(parsed).toMatchObject({ format: 'ogg-opus', seconds: 42.5 })
  })

  it('reads Vorbis from the last granule position at its own sample rate', async () => {
    const parsed = await parseOgg(read(oggFile({ codec: 'vorbis', seconds: 12, rate: 22_050, totalBytes: 30_000 })))
    expect(parsed).toMatchObject({ format: 'ogg-vorbis', seconds: 12 })
  })

  it('skips a last page with no granule (-1) and takes the page before it', async () => {
    // Four audio pages: the third ends at 3/4 of 40 s.
    const file = oggFile({ codec: 'opus', seconds: 40, totalBytes: 20_000, preSkip: 0, lastGranule: -1 })
    expect((await parseOgg(read(file)))!.seconds).toBe(30)
  })
})
