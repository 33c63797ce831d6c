/**
 * The standing hold for the response the server may start by itself (turn detection with
 * `create_response`, OpenAI's default): while the session may answer on its own, the wallet holds
 * the next response's worst case — the conversation so far, with a margin, plus the session's
 * output limit — before any input that grows the conversation is forwarded. When the balance covers
 * less than the client's limit, the gateway sends the supplier a `session.update` with
 * `max_response_output_tokens` at what the hold covers (at least one token); when it cannot cover
 * even that, the input is refused with an error event and never forwarded. The server-started
 * response then takes this hold as its own (realtime-responses.ts), and the next input takes a new
 * one. The margin (about 30 s of audio, 1,024 text tokens) keeps wallet calls to one per margin.
 */
import { isRefusal, type Hold } from '../../billing/charge'
import { errorEvent, type RealtimeBilling } from './billing'
import { affordableOutput, responseWorstCase, type SessionMeter, type Tokens } from './realtime-meter'
import type { SessionIO } from './realtime-responses'

const MARGIN: Tokens = { text: 1024, audio: 300 }

export class AutoResponseHold {
  private standing: { hold: Hold; covers: Tokens; wanted: number; cap: number } | undefined
  /** The output limit last sent upstream for server-started responses. */
  private sentCap: number | undefined

  constructor(
    private readonly meter: SessionMeter,
    private readonly billing: RealtimeBilling,
    private readonly io: SessionIO
  ) {}

  /** The session's output limit as the supplier knows it (what a session.update must carry). */
  get cap(): number {
    return this.standing?.cap ?? this.meter.maxOutput
  }

  /** Whether the next server-started response is held; false after answering with an error event. */
  async cover(eventId: string | undefined, sessionUpdate = false): Promise<boolean> {
    if (!this.meter.autoResponse) {
      await this.release()
      return true
    }
    const need = this.meter.conversation()
    const wanted = this.meter.maxOutput
    const s = this.standing
    if (s && s.covers.text >= need.text && s.covers.audio >= need.audio && s.wanted === wanted) return true
    const price = this.billing.opts.price
    const ratio = this.billing.opts.groupRatio
    const margin = { text: need.text + MARGIN.text, audio: need.audio + MARGIN.audio }
    const hold = await this.billing.hold('response', responseWorstCase(price, margin, wanted, ratio), responseWorstCase(price, need, 1, ratio), true)
    if (isRefusal(hold)) {
      this.io.toClient(errorEvent('insufficient_quota', 'Your balance is too low for the response the server would start after this input.', eventId))
      return false
    }
    if (!this.io.isOpen()) {
      await this.billing.release(hold)
      return false
    }
    // Too little for the margin's input: the hold covers the conversation as it is.
    const covers = hold.held >= responseWorstCase(price, margin, 1, ratio) ? margin : need
    const cap = Math.max(1, Math.min(wanted, affordableOutput(price, covers, ratio, hold.held)))
    this.standing = { hold, covers, wanted, cap }
    if (s) await this.billing.release(s.hold)
    // A session.update on its way up carries the cap itself; otherwise the gateway sends one.
    if (!sessionUpdate && cap !== (this.sentCap ?? wanted)) this.io.toUpstream(JSON.stringify({ type: 'session.update', session: { max_response_output_tokens: cap } }))
    this.sentCap = cap
    return true
  }

  /** The server started a response: it takes the standing hold (and the output limit it covers). */
  take(): { hold: Hold; cap: number } | undefined {
    const s = this.standing
    this.standing = undefined
    return s && { hold: s.hold, cap: s.cap }
  }

  /** The session ended: the standing hold goes back unused. */
  release(): Promise<unknown> {
    const s = this.take()
    return s ? this.billing.release(s.hold) : Promise.resolve()
  }
}
