/**
 * The money side of one realtime session's frames: which responses are running, what each holds
 * in the wallet, and what each has streamed (input transcriptions: realtime-transcripts.ts). A
 * client `response.create` is forwarded only once its worst case (the conversation so far plus its
 * output limit) is held, with `max_output_tokens` set to what the hold covers; `session.update`
 * goes up with `max_response_output_tokens` set to a number (never "inf"). A response the server
 * starts itself (voice activity) is held when `response.created` arrives, and cancelled when the
 * wallet refuses (the session then ends). A response whose deltas pass what its hold covers is
 * cancelled too. `response.done` settles the hold to the exact cost; when the session ends first,
 * running responses are cancelled upstream and each hold is settled to what was streamed (the
 * input and the deltas received), never left open. Out-of-band responses each hold their own.
 */
import type { ModelPrice, Usage } from '../../billing/formula'
import { isRefusal, type Hold } from '../../billing/charge'
import { realtimeUsage, refusalEvent, type RealtimeBilling } from './billing'
import { affordableOutput, audioBytesOf, base64Bytes, MAX_OUTPUT_TOKENS, responseWorstCase, streamedUsage, textTokensOf, type SessionMeter, type Tokens } from './realtime-meter'
import { TranscriptBook } from './realtime-transcripts'
import { AutoResponseHold } from './realtime-auto-hold'

export interface SessionIO {
  toClient(data: string): void
  toUpstream(data: string): void
  isOpen(): boolean
  /** End the session with an error event (out of money). */
  fail(code: string, message: string): void
  background(work: Promise<unknown>): void
  priceOf(model: string): ModelPrice | undefined
}

interface Running {
  eventId?: string
  input: Tokens
  /** Output tokens the hold covers (what was sent upstream as the limit). */
  cap: number
  conversation: boolean
  /** The client input counted when it started (see SessionMeter.conversationDone). */
  mark: Tokens
  hold?: Hold
  /** Set while the hold of a server-started response is being taken. */
  holding?: Promise<unknown>
  text: string
  audio: number
  cancelled?: boolean
}

type Event = Record<string, any>

const TEXT_DELTAS = new Set([
  'response.text.delta',
  'response.output_text.delta',
  'response.audio_transcript.delta',
  'response.output_audio_transcript.delta',
  'response.function_call_arguments.delta',
])
const AUDIO_DELTAS = new Set(['response.audio.delta', 'response.output_audio.delta'])
/** Streamed output may pass the cap by this share (the counts are estimates) before the gateway cancels it. */
const CANCEL_SLACK = 1.25
export const DISCONNECT_NOTE = 'client disconnected; billed for what was generated'
export const ENDED_NOTE = 'session ended; billed for what was generated'

export class ResponseBook {
  /** Client responses forwarded, waiting for their `response.created` (the supplier answers in order). */
  private pending: Running[] = []
  private running = new Map<string, Running>()
  private latest: Running | undefined
  private events = 0
  readonly transcripts: TranscriptBook
  private readonly auto: AutoResponseHold

  constructor(
    private readonly meter: SessionMeter,
    private readonly billing: RealtimeBilling,
    private readonly io: SessionIO
  ) {
    this.transcripts = new TranscriptBook(meter, billing, io)
    this.auto = new AutoResponseHold(meter, billing, io)
  }

  private get price() {
    return this.billing.opts.price
  }

  private get ratio() {
    return this.billing.opts.groupRatio
  }

  private eventIdOf(e: Event): string {
    if (typeof e.event_id !== 'string' || !e.event_id) e.event_id = `event_gw_${++this.events}`
    return e.event_id
  }

  /** One client frame: accounted for, held for when it starts paid work, then forwarded (or answered). */
  async fromClient(raw: string): Promise<void> {
    let e: Event
    try {
      e = JSON.parse(raw)
    } catch {
      return this.io.toUpstream(raw)
    }
    if (!e || typeof e !== 'object') return this.io.toUpstream(raw)
    switch (e.type) {
      case 'session.update':
        return this.sessionUpdate(e)
      case 'conversation.item.create': {
        const added = this.meter.addInput(textTokensOf(e.item), audioBytesOf(e.item))
        if (!(await this.auto.cover(e.event_id))) return this.meter.removeInput(added)
        break
      }
      case 'input_audio_buffer.append': {
        const bytes = base64Bytes(e.audio)
        const added = this.meter.addInput(0, bytes)
        if (!(await this.auto.cover(e.event_id))) return this.meter.removeInput(added)
        this.meter.bufferBytes += bytes
        break
      }
      case 'input_audio_buffer.clear':
        this.meter.bufferBytes = 0
        break
      case 'input_audio_buffer.commit':
        if (!(await this.auto.cover(e.event_id))) return
        return this.transcripts.commit(e, () => this.eventIdOf(e))
      case 'response.create':
        return this.create(e)
    }
    this.io.toUpstream(raw)
  }

  private async sessionUpdate(e: Event) {
    const s = e.session
    if (s && typeof s === 'object') {
      const t = s.input_audio_transcription
      const model = t && typeof t === 'object' ? (typeof t.model === 'string' && t.model ? t.model : 'whisper-1') : undefined
      if (model && !this.io.priceOf(model)) {
        return this.io.toClient(
          JSON.stringify({
            type: 'error',
            error: {
              type: 'invalid_request_error',
              code: 'model_not_priced',
              message: `The transcription model "${model}" has no price on this gateway.`,
              param: 'session.input_audio_transcription.model',
              event_id: e.event_id ?? null,
            },
          })
        )
      }
      this.meter.applySession(s)
      // Refused: the error event says so, and server-started responses are held when they start.
      await this.auto.cover(e.event_id, true)
      s.max_response_output_tokens = this.auto.cap
    }
    this.io.toUpstream(JSON.stringify(e))
  }

  private worst(input: Tokens, output: number) {
    return responseWorstCase(this.price, input, output, this.ratio)
  }

  private async create(e: Event) {
    const eventId = this.eventIdOf(e)
    if (!this.billing.canStart()) return this.io.fail('insufficient_quota', 'Your balance is too low to continue this realtime session.')
    const r: Event = e.response && typeof e.response === 'object' ? e.response : {}
    const own = textTokensOf({ i: r.instructions, t: r.tools })
    const outOfBand = r.conversation === 'none'
    // The client's response is the conversation's next one: the hold kept for a server-started one goes back.
    if (!outOfBand) await this.auto.release()
    // An out-of-band response with its own input sees only that input, not the conversation.
    const input = outOfBand && Array.isArray(r.input) ? this.meter.standalone(own + textTokensOf(r.input), audioBytesOf(r.input)) : this.meter.conversation(own)
    const asked = typeof r.max_output_tokens === 'number' && r.max_output_tokens >= 1 ? Math.min(MAX_OUTPUT_TOKENS, Math.floor(r.max_output_tokens)) : this.meter.maxOutput
    const hold = await this.billing.hold('response', this.worst(input, asked), this.worst(input, 1))
    if (isRefusal(hold)) return this.io.toClient(refusalEvent(hold, eventId, 'response'))
    if (!this.io.isOpen()) return void (await this.billing.release(hold))
    const cap = Math.max(1, Math.min(asked, affordableOutput(this.price, input, this.ratio, hold.held)))
    e.response = { ...r, max_output_tokens: cap }
    this.pending.push({ eventId, input, cap, conversation: !outOfBand, mark: this.meter.mark(), hold, text: '', audio: 0 })
    this.io.toUpstream(JSON.stringify(e))
  }

  /** One upstream frame (already relayed to the client): accounted for; holds and charges run in the background. */
  fromUpstream(raw: string) {
    if (!raw.startsWith('{')) return
    let e: Event
    try {
      e = JSON.parse(raw)
    } catch {
      return
    }
    const type = String(e.type ?? '')
    if (TEXT_DELTAS.has(type) || AUDIO_DELTAS.has(type)) return this.delta(e, AUDIO_DELTAS.has(type))
    switch (type) {
      case 'session.created':
      case 'session.updated':
        return this.meter.applySession(e.session)
      case 'error':
        return this.refusedUpstream(String(e.error?.event_id ?? ''))
      case 'response.created':
        return this.created(String(e.response?.id ?? ''))
      case 'response.done':
        return this.done(e.response ?? {})
      case 'input_audio_buffer.committed':
        return this.transcripts.committed(String(e.item_id ?? ''))
      case 'conversation.item.input_audio_transcription.completed':
        return this.transcripts.completed(e)
      case 'conversation.item.input_audio_transcription.failed':
        return this.transcripts.failed(String(e.item_id ?? ''))
    }
  }

  /** The supplier refused a client event: a response.create it refused runs nothing. */
  private refusedUpstream(eventId: string) {
    if (!eventId || this.transcripts.refused(eventId)) return
    const i = this.pending.findIndex((r) => r.eventId === eventId)
    if (i < 0) return
    const [r] = this.pending.splice(i, 1)
    if (r?.hold) this.io.background(this.billing.release(r.hold))
  }

  private created(id: string) {
    const mine = this.pending.shift()
    if (mine) {
      this.running.set(id, mine)
      this.latest = mine
      return
    }
    // Started by the server itself (voice activity): it takes the standing hold; without one it is
    // held now, and cancelled when the wallet refuses.
    const input = this.meter.conversation()
    const r: Running = { input, cap: this.meter.maxOutput, conversation: true, mark: this.meter.mark(), text: '', audio: 0 }
    this.running.set(id, r)
    this.latest = r
    const standing = this.auto.take()
    if (standing) {
      r.hold = standing.hold
      r.cap = standing.cap
      return
    }
    r.holding = this.billing.hold('response', this.worst(input, r.cap), this.worst(input, 1)).then((hold) => {
      if (!isRefusal(hold)) {
        r.hold = hold
        r.cap = Math.max(1, Math.min(r.cap, affordableOutput(this.price, input, this.ratio, hold.held)))
        return
      }
      this.cancel(id, r)
      this.io.fail('insufficient_quota', 'Your balance is too low for the response the server started.')
    })
    this.io.background(r.holding)
  }

  private cancel(id: string, r: Running) {
    if (r.cancelled || !this.io.isOpen()) return
    r.cancelled = true
    this.io.toUpstream(JSON.stringify({ type: 'response.cancel', response_id: id }))
  }

  private delta(e: Event, audio: boolean) {
    const id = typeof e.response_id === 'string' ? e.response_id : undefined
    const r = id ? this.running.get(id) : this.latest
    if (!r || typeof e.delta !== 'string') return
    if (audio) r.audio += base64Bytes(e.delta)
    else r.text += e.delta
    const out = this.meter.outputTokens(r.text, r.audio)
    if (id && out.text + out.audio > r.cap * CANCEL_SLACK) this.cancel(id, r)
  }

  private done(response: Event) {
    const id = String(response.id ?? '')
    const r = this.running.get(id) ?? this.pending.shift()
    this.running.delete(id)
    if (this.latest === r) this.latest = undefined
    const usage = realtimeUsage(response.usage) ?? (r && this.streamed(r))
    if (!usage) return
    if (!r || r.conversation) this.meter.conversationDone(usage, r?.mark ?? this.meter.mark())
    this.io.background(this.charge(r, usage, { response_id: id }))
  }

  private streamed(r: Running): Usage {
    return streamedUsage(r.input, this.meter.outputTokens(r.text, r.audio))
  }

  private async charge(r: Running | undefined, usage: Usage, metadata: Record<string, unknown>, content?: string) {
    await r?.holding
    await this.billing.charge(usage, r?.hold, { metadata, ...(content ? { content } : {}) })
    if (this.billing.exhausted) this.io.fail('insufficient_quota', 'Your balance is too low to continue this realtime session.')
  }

  /** The session is ending: responses still running are cancelled upstream (while it is open). */
  cancelRunning() {
    for (const [id, r] of this.running) this.cancel(id, r)
  }

  /** The session ended: every response and transcription still open is charged for what was streamed. */
  finish(note: string): Promise<unknown> {
    const open = [...this.running.entries(), ...this.pending.map((r) => ['', r] as const)]
    this.running.clear()
    this.pending = []
    return Promise.all([
      ...open.map(([id, r]) => this.charge(r, this.streamed(r), { response_id: id || null, streamed_only: true }, note)),
      this.transcripts.finish(note),
      this.auto.release(),
    ])
  }
}
