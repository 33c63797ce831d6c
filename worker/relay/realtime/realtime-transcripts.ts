/**
 * Input audio transcription in a realtime session, billed like any other call: while the session
 * has `input_audio_transcription` on, audio the client commits is forwarded only once the
 * transcription's worst case is held (its length at the session's audio format, at the
 * transcription model's own price), and audio the server commits itself (voice activity) is held
 * when `input_audio_buffer.committed` arrives. `…input_audio_transcription.completed` settles the
 * hold with its own log row — from the event's `usage` (tokens, or seconds of audio) when present,
 * else estimated from the audio's length and the transcript — and `…failed` gives it back.
 */
import { audioMinutes, type ModelPrice, type Usage } from '../../billing/formula'
import { isRefusal, type Hold } from '../../billing/charge'
import { realtimeUsage, refusalEvent, type RealtimeBilling } from './billing'
import { audioBytesPerSecond, transcriptionUsage, transcriptionWorstCase, type SessionMeter } from './realtime-meter'
import type { SessionIO } from './realtime-responses'

interface Transcribing {
  eventId?: string
  model: string
  price: ModelPrice
  bytes: number
  format: string | undefined
  hold?: Hold
  /** Set while the hold of audio the server committed is being taken. */
  holding?: Promise<unknown>
}

/** What a completed transcription costs: its reported usage, else its estimate. */
export function transcriptionCost(t: Pick<Transcribing, 'price' | 'bytes' | 'format'>, event: { usage?: Record<string, any>; transcript?: unknown }): Usage {
  const u = event.usage
  const seconds = typeof u?.seconds === 'number' && Number.isFinite(u.seconds) && u.seconds >= 0 ? u.seconds : undefined
  if (t.price.type === 'times') {
    return seconds !== undefined ? { promptTokens: 0, completionTokens: 0, calls: audioMinutes(seconds) } : transcriptionUsage(t.price, t.bytes, t.format)
  }
  const reported = u && u.type !== 'duration' ? realtimeUsage(u) : undefined
  if (reported) return reported
  const bytes = seconds !== undefined ? seconds * audioBytesPerSecond(t.format) : t.bytes
  return transcriptionUsage(t.price, bytes, t.format, typeof event.transcript === 'string' ? event.transcript : undefined)
}

export class TranscriptBook {
  private pending: Transcribing[] = []
  private open = new Map<string, Transcribing>()

  constructor(
    private readonly meter: SessionMeter,
    private readonly billing: RealtimeBilling,
    private readonly io: SessionIO
  ) {}

  private current(): Omit<Transcribing, 'eventId'> | undefined {
    const model = this.meter.transcription
    const price = model && this.io.priceOf(model)
    if (!model || !price || this.meter.bufferBytes === 0) return undefined
    return { model, price, bytes: this.meter.bufferBytes, format: this.meter.inputFormat }
  }

  private worst(t: Omit<Transcribing, 'eventId'>) {
    return transcriptionWorstCase(t.price, t.bytes, t.format, this.billing.opts.groupRatio)
  }

  /** A client `input_audio_buffer.commit`: hold the transcription first, or answer with an error. */
  async commit(e: Record<string, unknown>, eventId: () => string): Promise<void> {
    const t = this.current()
    if (!t) return this.io.toUpstream(JSON.stringify(e))
    const id = eventId()
    const hold = await this.billing.hold('transcription', this.worst(t), this.worst(t))
    if (isRefusal(hold)) return this.io.toClient(refusalEvent(hold, id, 'transcription'))
    if (!this.io.isOpen()) return void (await this.billing.release(hold))
    this.meter.bufferBytes = 0
    this.pending.push({ ...t, eventId: id, hold })
    this.io.toUpstream(JSON.stringify(e))
  }

  /** The supplier refused a client event: a commit it refused transcribes nothing. */
  refused(eventId: string): boolean {
    const i = this.pending.findIndex((t) => t.eventId === eventId)
    if (i < 0) return false
    const [t] = this.pending.splice(i, 1)
    if (t?.hold) this.io.background(this.billing.release(t.hold))
    return true
  }

  /** `input_audio_buffer.committed`: the client's commit, or audio the server committed by itself. */
  committed(itemId: string) {
    const fromClient = this.pending.shift()
    if (fromClient) return void this.open.set(itemId, fromClient)
    const t = this.current()
    this.meter.bufferBytes = 0
    if (!t) return
    const server: Transcribing = { ...t }
    this.open.set(itemId, server)
    server.holding = this.billing.hold('transcription', this.worst(t), this.worst(t)).then((hold) => {
      if (!isRefusal(hold)) return void (server.hold = hold)
      this.io.fail('insufficient_quota', 'Your balance is too low to transcribe more audio in this realtime session.')
    })
    this.io.background(server.holding)
  }

  /** A transcription finished: charged with its own log row. */
  completed(event: { item_id?: unknown; usage?: Record<string, any>; transcript?: unknown }) {
    const itemId = String(event.item_id ?? '')
    const t = this.open.get(itemId) ?? this.untracked()
    if (!t) return
    this.open.delete(itemId)
    this.io.background(this.charge(t, transcriptionCost(t, event), { item_id: itemId }))
  }

  /** A transcription the gateway saw no commit for (still charged, at the session's model, without a hold). */
  private untracked(): Transcribing | undefined {
    const model = this.meter.transcription
    const price = model && this.io.priceOf(model)
    return model && price ? { model, price, bytes: 0, format: this.meter.inputFormat } : undefined
  }

  failed(itemId: string) {
    const t = this.open.get(itemId)
    if (!t) return
    this.open.delete(itemId)
    this.io.background(Promise.resolve(t.holding).then(() => t.hold && this.billing.release(t.hold)))
  }

  private async charge(t: Transcribing, usage: Usage, metadata: Record<string, unknown>, content?: string) {
    await t.holding
    await this.billing.charge(usage, t.hold, { price: t.price, model: t.model, metadata: { ...metadata, transcription: true }, ...(content ? { content } : {}) })
  }

  /** The session ended: transcriptions still open are charged at their audio's length. */
  finish(note: string): Promise<unknown> {
    const open = [...this.pending, ...this.open.values()]
    this.pending = []
    this.open.clear()
    return Promise.all(open.map((t) => this.charge(t, transcriptionUsage(t.price, t.bytes, t.format), {}, note)))
  }
}
