/**
 * Audio files for tests, written byte by byte: each container's header as its spec lays it out, with
 * filler where the audio would be (the duration parsers read headers only).
 */

/** The bytes of `parts`, one after another. */
export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const text = (s: string) => new TextEncoder().encode(s)

function le(value: number, bytes: number): Uint8Array {
  const out = new Uint8Array(bytes)
  for (let i = 0; i < bytes; i++) out[i] = Math.floor(value / 256 ** i) % 256
  return out
}

function be(value: number, bytes: number): Uint8Array {
  return le(value, bytes).reverse()
}

/** A RIFF WAVE file: `fmt ` then `data` holding `dataBytes` (byte rate and tag overridable to lie). */
export function wavFile(o: { rate: number; channels: number; bits: number; dataBytes: number; tag?: number; byteRate?: number; dataSizeField?: number }): Uint8Array {
  const blockAlign = (o.channels * o.bits) / 8
  const fmt = concat(le(o.tag ?? 1, 2), le(o.channels, 2), le(o.rate, 4), le(o.byteRate ?? o.rate * blockAlign, 4), le(blockAlign, 2), le(o.bits, 2))
  const list = concat(text('LIST'), le(4, 4), text('INFO'))
  const chunks = concat(text('fmt '), le(fmt.length, 4), fmt, list, text('data'), le(o.dataSizeField ?? o.dataBytes, 4), new Uint8Array(o.dataBytes))
  return concat(text('RIFF'), le(4 + chunks.length, 4), text('WAVE'), chunks)
}

/** An ID3v2.4 tag of `bytes` payload (cover art and the like). */
export function id3Tag(bytes: number): Uint8Array {
  const size = [(bytes >> 21) & 0x7f, (bytes >> 14) & 0x7f, (bytes >> 7) & 0x7f, bytes & 0x7f]
  return concat(text('ID3'), new Uint8Array([4, 0, 0, ...size]), new Uint8Array(bytes))
}

/** MP3 frames: MPEG-1 layer III 128 kbit/s 44.1 kHz stereo (417 bytes), or MPEG-2.5 8 kbit/s 8 kHz mono (72 bytes). */
export const MP3_128K = { header: [0xff, 0xfb, 0x90, 0x00], length: 417, samples: 1152, rate: 44_100, sideInfo: 32 }
export const MP3_8K = { header: [0xff, 0xe3, 0x18, 0xc0], length: 72, samples: 576, rate: 8000, sideInfo: 9 }

/** `frames` frames of one kind; with `xingFrames` the first one is a Xing tag claiming that count (or `vbri`). */
export function mp3File(kind: typeof MP3_128K, frames: number, o: { id3?: number; xingFrames?: number; vbriFrames?: number } = {}): Uint8Array {
  const frame = () => {
    const f = new Uint8Array(kind.length)
    f.set(kind.header)
    return f
  }
  const parts = Array.from({ length: frames }, frame)
  if (o.xingFrames !== undefined) parts[0]!.set(concat(text('Xing'), be(1, 4), be(o.xingFrames, 4)), 4 + kind.sideInfo)
  if (o.vbriFrames !== undefined) parts[0]!.set(concat(text('VBRI'), be(1, 2), be(0, 2), be(75, 2), be(0, 4), be(o.vbriFrames, 4)), 36)
  return concat(o.id3 ? id3Tag(o.id3) : new Uint8Array(), ...parts)
}

/** A FLAC stream: STREAMINFO, a PICTURE block of `pictureBytes`, then `audioBytes` of frames. */
export function flacFile(o: { rate: number; channels: number; bits: number; totalSamples: number; audioBytes: number; pictureBytes?: number }): Uint8Array {
  const info = new Uint8Array(34)
  info.set(be(4096, 2), 0)
  info.set(be(4096, 2), 2)
  // 20 bits rate, 3 bits channels − 1, 5 bits bits − 1, 36 bits total samples.
  const packed = (BigInt(o.rate) << 44n) | (BigInt(o.channels - 1) << 41n) | (BigInt(o.bits - 1) << 36n) | BigInt(o.totalSamples)
  for (let i = 0; i < 8; i++) info[10 + i] = Number((packed >> BigInt(8 * (7 - i))) & 0xffn)
  const picture = o.pictureBytes ?? 0
  return concat(text('fLaC'), new Uint8Array([0]), be(34, 3), info, new Uint8Array([0x80 | 6]), be(picture, 3), new Uint8Array(picture), new Uint8Array(o.audioBytes))
}

/** One Ogg page of whole packets (CRC left zero: the parser does not check it). */
export function oggPage(serial: number, granule: number, packets: Uint8Array | Uint8Array[], headerType = 0): Uint8Array {
  const lacing: number[] = []
  for (const packet of Array.isArray(packets) ? packets : [packets]) {
    for (let left = packet.length; ; left -= 255) {
      lacing.push(Math.min(255, left))
      if (left < 255) break
    }
  }
  const body = Array.isArray(packets) ? concat(...packets) : packets
  const granuleBytes = granule < 0 ? new Uint8Array(8).fill(0xff) : le(granule, 8)
  return concat(text('OggS'), new Uint8Array([0, headerType]), granuleBytes, le(serial, 4), le(0, 4), le(0, 4), new Uint8Array([lacing.length, ...lacing]), body)
}

const opusHead = (preSkip: number) => concat(text('OpusHead'), new Uint8Array([1, 1]), le(preSkip, 2), le(16_000, 4), le(0, 2), new Uint8Array([0]))

/**
 * An Ogg Opus file whose last granule claims `claimedSeconds` while its pages carry `pages` ×
 * `packetsPerPage` real packets of TOC `toc` (3 bytes each): what a decoder plays is the packets.
 */
export function opusPacketsFile(o: { pages: number; packetsPerPage: number; toc: number; claimedSeconds: number }): Uint8Array {
  const serial = 7
  const pages = [oggPage(serial, 0, opusHead(0), 2), oggPage(serial, 0, text('OpusTags\0\0\0\0\0\0\0\0'))]
  const packets = Array.from({ length: o.packetsPerPage }, () => new Uint8Array([o.toc, 0, 0]))
  for (let i = 1; i <= o.pages; i++) pages.push(oggPage(serial, i === o.pages ? o.claimedSeconds * 48_000 : i, packets, i === o.pages ? 4 : 0))
  return concat(...pages)
}

/**
 * An Ogg Opus (or Vorbis) file of `totalBytes` lasting `seconds`: the identification header, then
 * audio pages whose granule positions advance evenly up to the last one.
 */
export function oggFile(o: { codec: 'opus' | 'vorbis'; seconds: number; totalBytes: number; preSkip?: number; rate?: number; lastGranule?: number }): Uint8Array {
  const serial = 0x1234
  const preSkip = o.preSkip ?? 312
  const rate = o.codec === 'opus' ? 48_000 : (o.rate ?? 44_100)
  const head =
    o.codec === 'opus' ? opusHead(preSkip) : concat(new Uint8Array([1]), text('vorbis'), le(0, 4), new Uint8Array([2]), le(rate, 4), le(0, 12), new Uint8Array([0xb8, 1]))
  const pages = [oggPage(serial, 0, head, 2)]
  const end = Math.round(o.seconds * rate) + (o.codec === 'opus' ? preSkip : 0)
  const bodySize = 4000
  let used = pages[0]!.length
  const count = Math.max(1, Math.floor((o.totalBytes - used) / (bodySize + 27 + 16)))
  for (let i = 1; i <= count; i++) {
    const last = i === count
    const page = oggPage(
      serial,
      last ? (o.lastGranule ?? end) : Math.floor((end * i) / count),
      new Uint8Array(last ? Math.max(1, o.totalBytes - used - 27 - 17) : bodySize),
      last ? 4 : 0
    )
    pages.push(page)
    used += page.length
  }
  return concat(...pages)
}

/** An ISO BMFF box. */
export function box(type: string, ...content: Uint8Array[]): Uint8Array {
  const body = concat(...content)
  return concat(be(8 + body.length, 4), text(type), body)
}

/** An M4A: ftyp, moov with mvhd (version 0 or 1) and cover art, then mdat of `audioBytes`. */
export function mp4File(o: { timescale: number; duration: number; audioBytes: number; version?: 0 | 1; coverBytes?: number; moovLast?: boolean }): Uint8Array {
  const v1 = o.version === 1
  const mvhd = v1
    ? box('mvhd', new Uint8Array([1, 0, 0, 0]), be(0, 8), be(0, 8), be(o.timescale, 4), be(o.duration, 8), new Uint8Array(80))
    : box('mvhd', new Uint8Array(4), be(0, 4), be(0, 4), be(o.timescale, 4), be(o.duration, 4), new Uint8Array(80))
  const moov = box('moov', mvhd, box('udta', box('covr', new Uint8Array(o.coverBytes ?? 0))))
  const mdat = box('mdat', new Uint8Array(o.audioBytes))
  const ftyp = box('ftyp', text('M4A '), be(0, 4), text('isomM4A '))
  return o.moovLast ? concat(ftyp, mdat, moov) : concat(ftyp, moov, mdat)
}

/** An EBML element with an 8-byte size (or the unknown size live recorders write). */
function element(id: number[], body: Uint8Array, unknownSize = false): Uint8Array {
  const size = unknownSize ? new Uint8Array([0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]) : concat(new Uint8Array([0x01]), be(body.length, 7))
  return concat(new Uint8Array(id), size, body)
}

/** A WebM: EBML header, Segment (unknown size) with Info (TimecodeScale, Duration unless omitted), one Cluster. */
export function webmFile(o: { duration?: number; timecodeScale?: number; float32?: boolean; clusterBytes: number }): Uint8Array {
  const float = new Uint8Array(o.float32 ? 4 : 8)
  const view = new DataView(float.buffer)
  if (o.float32) view.setFloat32(0, o.duration ?? 0)
  else view.setFloat64(0, o.duration ?? 0)
  const info = element(
    [0x15, 0x49, 0xa9, 0x66],
    concat(
      element([0x2a, 0xd7, 0xb1], be(o.timecodeScale ?? 1_000_000, 4)),
      element([0x4d, 0x80], text('Lavf60.16.100 writing app')),
      o.duration === undefined ? new Uint8Array() : element([0x44, 0x89], float)
    )
  )
  const header = element([0x1a, 0x45, 0xdf, 0xa3], element([0x42, 0x82], text('webm')))
  const cluster = element([0x1f, 0x43, 0xb6, 0x75], new Uint8Array(o.clusterBytes), true)
  return concat(header, element([0x18, 0x53, 0x80, 0x67], concat(info, cluster), true))
}
