import { afterEach, describe, expect, it, vi } from 'vitest'
import { env } from 'cloudflare:workers'
import { setOptions } from '../test/factories'
import type { Notice } from './types'
import { hmacSha256 } from './sinks/http'
import { webhookSink, SIGNATURE_HEADER } from './sinks/webhook'
import { dingtalkSink } from './sinks/dingtalk'
import { feishuSink, larkSink } from './sinks/feishu'
import { slackSink } from './sinks/slack'
import { wecomSink } from './sinks/wecom'
import { telegramSink } from './sinks/telegram'
import { toHex } from '../lib/crypto'
import { emailSink } from './sinks/email'
import { mailsTo, testSmtpOptions, uniqueEmail } from '../test/test-smtp'

const notice: Notice = {
  event: 'channel.disabled',
  at: '2026-12-02T08:00:00.000Z',
  severity: 'warning',
  text: 'Channel #7 was disabled: invalid key',
  data: { subject: 'channel:7', channel_id: 7 },
}

const target = (url: string, secret = '', config: Record<string, string> = {}) => ({ url, secret, config })

async function hmacB64(key: string, message: string) {
  const k = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return btoa(String.fromCharCode(...new Uint8Array(await crypto.subtle.sign('HMAC', k, new TextEncoder().encode(message)))))
}

afterEach(() => vi.restoreAllMocks())

describe('notification sinks', () => {
  it('HMAC-SHA256 matches the RFC-style known answer', async () => {
    expect(toHex(await hmacSha256('key', 'The quick brown fox jumps over the lazy dog'))).toBe('f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8')
  })

  it('webhook: the documented body, and X-Signature is the hex HMAC of the exact body', async () => {
    const req = await webhookSink.build(target('https://hooks.test/in', 's3cret-webhook'), notice)
    expect(req.url).toBe('https://hooks.test/in')
    expect(Object.keys(JSON.parse(req.body))).toEqual(['event', 'at', 'severity', 'text', 'data'])
    expect(JSON.parse(req.body)).toEqual({ event: 'channel.disabled', at: notice.at, severity: 'warning', text: notice.text, data: notice.data })
    expect(SIGNATURE_HEADER).toBe('X-Signature')
    expect(req.headers[SIGNATURE_HEADER]).toBe(toHex(await hmacSha256('s3cret-webhook', req.body)))
    expect(req.headers[SIGNATURE_HEADER]).toMatch(/^[0-9a-f]{64}$/)
    // Without a secret there is no signature header.
    expect((await webhookSink.build(target('https://hooks.test/in'), notice)).headers).toEqual({})
  })

  it('dingtalk: text message; with a secret the URL keeps its access token and gains timestamp and sign', async () => {
    const secret = 'SECabcdef0123456789'
    const req = await dingtalkSink.build(target('https://oapi.dingtalk.com/robot/send?access_token=tok123', secret), notice)
    const url = new URL(req.url)
    expect(url.searchParams.get('access_token')).toBe('tok123')
    const timestamp = url.searchParams.get('timestamp')!
    expect(Math.abs(Number(timestamp) - Date.now())).toBeLessThan(60_000)
    expect(url.searchParams.get('sign')).toBe(await hmacB64(secret, `${timestamp}\n${secret}`))
    const body = JSON.parse(req.body)
    expect(body.msgtype).toBe('text')
    expect(body.text.content).toContain('[WARNING] channel.disabled')
    expect(body.text.content).toContain(notice.text)
    const unsigned = new URL((await dingtalkSink.build(target('https://oapi.dingtalk.com/robot/send?access_token=tok123'), notice)).url)
    expect(unsigned.searchParams.has('sign')).toBe(false)
  })

  it('feishu and lark: msg_type text, with timestamp and the sign keyed by "timestamp\\nsecret"', async () => {
    for (const sink of [feishuSink, larkSink]) {
      const req = await sink.build(target('https://open.feishu.cn/open-apis/bot/v2/hook/abc', 'fs-secret'), notice)
      const body = JSON.parse(req.body)
      expect(body.msg_type).toBe('text')
      expect(body.content.text).toContain(notice.text)
      expect(body.sign).toBe(await hmacB64(`${body.timestamp}\nfs-secret`, ''))
      expect(JSON.parse((await sink.build(target('https://open.feishu.cn/open-apis/bot/v2/hook/abc'), notice)).body)).not.toHaveProperty('sign')
    }
  })

  it('slack: text fallback plus header and mrkdwn section blocks', async () => {
    const body = JSON.parse((await slackSink.build(target('https://hooks.slack.com/services/T/B/X'), { ...notice, text: 'a <b> & c' })).body)
    expect(body.text).toContain('[WARNING] channel.disabled')
    expect(body.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: '[WARNING] channel.disabled' } })
    expect(body.blocks[1].text.type).toBe('mrkdwn')
    expect(body.blocks[1].text.text).toContain('a &lt;b&gt; &amp; c')
  })

  it('wecom: a markdown message to the key URL', async () => {
    const req = await wecomSink.build(target('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k1'), notice)
    expect(req.url).toBe('https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=k1')
    const body = JSON.parse(req.body)
    expect(body.msgtype).toBe('markdown')
    expect(body.markdown.content).toContain('**[WARNING] channel.disabled**')
  })

  it('a 200 answer whose errcode is not 0 is a failure (DingTalk, WeCom)', async () => {
    vi.spyOn(globalThis, 'fetch').mockImplementation(async () => Response.json({ errcode: 310000, errmsg: 'sign not match' }))
    const out = await dingtalkSink.send(env, target('https://oapi.dingtalk.com/robot/send?access_token=t', 'SECx'), notice)
    expect(out).toMatchObject({ ok: false, httpStatus: 200 })
    expect(out.error).toContain('sign not match')
  })

  it('telegram: sendMessage of the bot to config.chat_id; the token never reaches the error', async () => {
    await setOptions({ TelegramBotToken: '123456:tg-bot-token-secret', TelegramApiBase: 'https://tg.test' })
    const calls: { url: string; body: any }[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const req = new Request(input, init)
      calls.push({ url: req.url, body: await req.json() })
      return new Response(`bad request for ${req.url}`, { status: 400 })
    })
    const out = await telegramSink.send(env, target('', '', { chat_id: '-10042' }), notice)
    expect(calls[0]!.url).toBe('https://tg.test/bot123456:tg-bot-token-secret/sendMessage')
    expect(calls[0]!.body.chat_id).toBe('-10042')
    expect(calls[0]!.body.text).toContain(notice.text)
    expect(out.ok).toBe(false)
    expect(out.error).not.toContain('tg-bot-token-secret')
  })

  it('telegram without a bot token fails without a request', async () => {
    const spy = vi.spyOn(globalThis, 'fetch')
    const out = await telegramSink.send(env, target('', '', { chat_id: '1' }), notice)
    expect(out.ok).toBe(false)
    expect(spy).not.toHaveBeenCalled()
  })

  it('email: the notice through the configured SMTP server to config.address', async () => {
    await setOptions(testSmtpOptions())
    const to = uniqueEmail('alerts')
    expect(await emailSink.send(env, target('', '', { address: to }), notice)).toEqual({ ok: true, httpStatus: 0, error: '' })
    const [mail] = await mailsTo(to)
    expect(mail!.subject).toBe('[WARNING] channel.disabled: Channel #7 was disabled: invalid key')
    expect(mail!.text).toContain('channel_id: 7')
  })

  it('email without SMTP settings fails with the reason', async () => {
    const out = await emailSink.send(env, target('', '', { address: 'ops@example.com' }), notice)
    expect(out.ok).toBe(false)
    expect(out.error).toContain('Email is not configured')
  })
})
