/**
 * The write-behind's log INSERT (rows packed as JSON and unpacked by SQLite): every column lands
 * with its value and type unchanged — quotes, new lines, non-Latin text, emoji, large integers,
 * NULL metadata — and a flush of many rows uses a handful of statements.
 */
import { runInDurableObject } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { createToken, createUser, wallet } from '../test/factories'
import { buildFlushStatements, type FlushPlan } from './wallet-flush'
import { packLog, unpackLog } from './wallet-log-row'
import type { UserWallet } from './user-wallet'

describe('log rows through the write-behind', () => {
  it('land column for column, types included', async () => {
    const user = await createUser({ quota: 10_000_000 })
    const token = await createToken(user.id, { unlimited: true })
    const stub = wallet(user.id)
    const content = `he said "hi"\n\t— 日本語 🙂 \\ ' ; DROP TABLE logs; --`
    const log = {
      type: 2,
      createdAt: 1_764_000_000,
      username: 'ünïcode',
      tokenName: 'key "one"',
      tokenId: token.id,
      modelName: 'gpt-4o',
      upstreamModel: 'gpt-4o-2024',
      promptTokens: 123_456,
      completionTokens: 7,
      channelId: 0,
      requestTime: 42,
      firstResponseTime: 9,
      isStream: true,
      sourceIp: '2001:db8::1',
      requestId: 'req-json',
      content,
      metadata: { nested: { list: [1, 'two'] }, quote: '"' },
    }
    await stub.settle({ userId: user.id, reqId: 'req-json', quota: 9_007_199, log })
    await stub.settle({ userId: user.id, reqId: 'req-bare', quota: 0, log: { type: 2, createdAt: 1_764_000_001, requestId: 'req-bare' } })
    expect(await stub.flush()).toEqual({ ok: true })
    const rows = await env.DB.prepare(
      'SELECT content, username, token_name, token_id, model_name, upstream_model, quota, prompt_tokens, completion_tokens, request_time, first_response_time, is_stream, source_ip, metadata, typeof(quota) AS tq, typeof(content) AS tc, typeof(metadata) AS tm, created_at FROM logs WHERE user_id = ? ORDER BY id'
    )
      .bind(user.id)
      .all<Record<string, unknown>>()
    expect(rows.results[0]).toMatchObject({
      content,
      username: 'ünïcode',
      token_name: 'key "one"',
      token_id: token.id,
      model_name: 'gpt-4o',
      upstream_model: 'gpt-4o-2024',
      quota: 9_007_199,
      prompt_tokens: 123_456,
      completion_tokens: 7,
      request_time: 42,
      first_response_time: 9,
      is_stream: 1,
      source_ip: '2001:db8::1',
      tq: 'integer',
      tc: 'text',
      tm: 'text',
      created_at: 1_764_000_000,
    })
    expect(JSON.parse(rows.results[0]!.metadata as string)).toMatchObject({ nested: { list: [1, 'two'] }, quote: '"' })
    expect(rows.results[1]).toMatchObject({ content: '', quota: 0, tq: 'integer' })
  })

  it('packs 500 rows into one INSERT', () => {
    const statements: string[] = []
    const db = { prepare: (sql: string) => ({ bind: () => (statements.push(sql), {}) }) } as unknown as D1Database
    const logs: FlushPlan['logs'] = Array.from({ length: 500 }, (_, i) => [`L:${i}`, packLog({ type: 3, createdAt: 1, content: 'x'.repeat(200) }, 0, 1)])
    buildFlushStatements(db, { userId: 1, seq: 1, channels: [], logs })
    expect(statements.filter((s) => s.startsWith('INSERT INTO logs'))).toHaveLength(1)
  })

  it('unpack to the row they were packed from (the form dead letters keep)', () => {
    const log = {
      type: 2,
      createdAt: 5,
      content: 'c',
      username: 'u',
      tokenName: 't',
      tokenId: 3,
      modelName: 'm',
      upstreamModel: 'um',
      promptTokens: 1,
      completionTokens: 2,
      channelId: 4,
      requestTime: 6,
      firstResponseTime: 7,
      isStream: true,
      sourceIp: '::1',
      requestId: 'r',
      metadata: { a: [1] },
    }
    expect(unpackLog(packLog(log, 9, 8, [4, 9]))).toEqual({ ...log, quota: 9, userId: 8, channelCharge: [4, 9] })
    expect(unpackLog(packLog({ type: 3, createdAt: 5 }, 0, 8))).toMatchObject({ type: 3, createdAt: 5, quota: 0, userId: 8, content: '', isStream: false, metadata: undefined })
  })

  it('still land when they were stored unpacked by an earlier version', async () => {
    const user = await createUser({ quota: 1_000 })
    const stub = wallet(user.id)
    await stub.balance({ userId: user.id })
    // What an earlier version stored for a settle of 7 units: the row as a plain object.
    await runInDurableObject(stub, (_: UserWallet, state) => {
      state.storage.kv.put('L:legacy', {
        type: 2,
        createdAt: 1_764_000_000,
        modelName: 'old-model',
        requestId: 'req-old',
        quota: 7,
        userId: user.id,
        channelCharge: [0, 7],
        metadata: { kept: true },
      })
    })
    expect(await stub.flush()).toEqual({ ok: true })
    const row = await env.DB.prepare('SELECT model_name, quota, request_id, metadata FROM logs WHERE user_id = ?').bind(user.id).first<Record<string, unknown>>()
    expect(row).toMatchObject({ model_name: 'old-model', quota: 7, request_id: 'req-old' })
    expect(JSON.parse(row!.metadata as string)).toEqual({ kept: true })
    const stat = await env.DB.prepare('SELECT request_count, quota FROM statistics WHERE user_id = ?').bind(user.id).first<Record<string, unknown>>()
    expect(stat).toMatchObject({ request_count: 1, quota: 7 })
  })
})
