/**
 * Finding 17 through the real relay: a transcription holds the audio's real duration (read from its
 * container), so a low-bitrate file is refused up front instead of running the balance into debt
 * when the supplier bills the minutes it decoded.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { oggFile } from '../test/audio-fixtures'
import { createChannel, createToken, createUser, ledger, send, setPrice, wallet } from '../test/factories'
import { mockUpstream } from '../test/upstream-mock'

// 10 minutes of 6 kbit/s Opus: ~450 KB, which 32 kbit/s would have taken for 113 s (2 minutes).
const TEN_MINUTES = oggFile({ codec: 'opus', seconds: 600, totalBytes: 450_000 })
// whisper-1 at 3 (= 3000 units a started minute): 10 minutes cost 30,000.
const TEN_MINUTES_COST = 30_000

let upstream: ReturnType<typeof mockUpstream>
beforeEach(() => {
  // The supplier bills what it decodes: the file's real 600 s.
  upstream = mockUpstream((req) => (new URL(req.url).pathname.endsWith('/audio/transcriptions') ? Response.json({ text: 'ten minutes of talk', duration: 600 }) : undefined))
})
afterEach(() => upstream.restore())

async function customer(quota: number) {
  await setPrice('whisper-1', 3, 0, 'times')
  await createChannel({ key: 'good', models: 'whisper-1' })
  const user = await createUser({ quota })
  const { key } = await createToken(user.id)
  return { user, key }
}

function transcribe(key: string) {
  const form = new FormData()
  form.set('model', 'whisper-1')
  form.set('response_format', 'verbose_json')
  form.set('file', new File([TEN_MINUTES], 'voice-note.ogg', { type: 'audio/ogg' }))
  return send('/v1/audio/transcriptions', { key, body: form, method: 'POST' })
}

describe('transcription holds', () => {
  it('refuse a low-bitrate file whose real duration the balance cannot pay (32 kbit/s would have held 2 minutes)', async () => {
    const { user, key } = await customer(20_000)
    const res = await transcribe(key)
    expect(res.status).toBe(429)
    expect(res.json.error).toMatchObject({ code: 'insufficient_quota' })
    expect(upstream.calls).toHaveLength(0)
    expect((await wallet(user.id).balance({ userId: user.id }))!.quota).toBe(20_000)
  })

  it('hold the real duration, so the supplier’s bill never takes the balance below zero', async () => {
    const { user, key } = await customer(TEN_MINUTES_COST)
    const res = await transcribe(key)
    expect(res.status).toBe(200)
    expect(upstream.calls).toHaveLength(1)
    const after = await ledger(user.id)
    expect(after.loggedQuota).toBe(TEN_MINUTES_COST)
    expect(after.quota).toBe(0)
  })
})
