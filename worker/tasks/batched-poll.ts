/**
 * The batched poll Midjourney and Suno rows share: unfinished rows grouped per channel, one upstream
 * call per channel, each answer applied to its row. A channel that is gone (a disabled channel may
 * come back) or whose call fails leaves its rows to the next poll or to the timeout.
 */
import type { RoutedChannel } from '../channels/types'
import { logger } from '../lib/logger'

const serverLog = logger({ module: 'task-poll' })

export interface BatchedPoll<Row, Answer> {
  /** Names the platform in the log line of a failed call. */
  label: string
  /** The upstream's id of a row (never empty here: rows without one fail before the poll). */
  upstreamId(row: Row): string
  fetch(channel: RoutedChannel, ids: string[]): Promise<Answer[]>
  /** The upstream id an answer is about, if it names one. */
  answerId(answer: Answer): string | undefined
  apply(row: Row, answer: Answer): Promise<Row>
}

/** Polls each channel of `byChannel` once and puts every row an answer updated into `out` by row id. */
export async function pollPerChannel<Row extends { id: number }, Answer>(
  byChannel: Map<number, Row[]>,
  channels: Record<number, RoutedChannel>,
  poll: BatchedPoll<Row, Answer>,
  out: Map<number, Row>
): Promise<void> {
  for (const [channelId, list] of byChannel) {
    const channel = channels[channelId]
    if (!channel) continue
    let answers: Answer[]
    try {
      answers = await poll.fetch(channel, list.map(poll.upstreamId))
    } catch (err) {
      serverLog.error('task poll failed', { platform: poll.label, channel_id: channelId, error: err })
      continue
    }
    const byId = new Map<string, Answer>()
    for (const answer of answers) {
      const id = answer ? poll.answerId(answer) : undefined
      if (typeof id === 'string') byId.set(id, answer)
    }
    for (const row of list) {
      const answer = byId.get(poll.upstreamId(row))
      if (answer) out.set(row.id, await poll.apply(row, answer))
    }
  }
}
