/**
 * Columns of the log table: time, type, channel and user (all-logs view), token, model (and the
 * upstream model when it differs), input/output tokens, quota with its breakdown, duration, time to
 * first token, tokens per second, stream flag and the detail text. The server sorts logs newest first.
 */
import { useMemo } from 'react'
import type { ColumnDef } from '@tanstack/react-table'
import { useTranslation } from 'react-i18next'
import { Badge } from '@/components/ui/badge'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { timestamp2string } from '@/lib/format'
import { cn } from '@/lib/utils'
import { LOG_TYPE } from '@contract/enums'
import type { LogRow } from '../api'
import { LogTypeBadge } from './logs-type-badge'
import { LogsQuotaPopover } from './logs-quota-popover'

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const dash = <span className="text-muted-foreground">—</span>

/** Tokens per second of the generation (completion tokens over the whole request time). */
export function tokensPerSecond(row: Pick<LogRow, 'completion_tokens' | 'request_time'>): number | null {
  if (!row.completion_tokens || !row.request_time) return null
  return row.completion_tokens / (row.request_time / 1000)
}

function Detail({ row }: { row: LogRow }) {
  const { t } = useTranslation('logs')
  if (!row.content) return dash
  const error = row.type === LOG_TYPE.ERROR
  return (
    <Popover>
      <PopoverTrigger asChild>
        <button
          type="button"
          className={cn('block max-w-56 cursor-pointer truncate text-left hover:underline', error ? 'text-destructive' : 'text-muted-foreground')}
          aria-label={t('detail.open')}
          data-testid="log-detail-trigger"
        >
          {row.content}
        </button>
      </PopoverTrigger>
      <PopoverContent className="w-96 max-w-[calc(100vw-2rem)] text-sm" align="end" data-testid="log-detail">
        <p className="mb-2 font-semibold">{t('detail.title')}</p>
        <p className={cn('max-h-64 overflow-y-auto break-words whitespace-pre-wrap', error && 'text-destructive')}>{row.content}</p>
        {(row.request_id || row.source_ip) && (
          <dl className="mt-3 grid gap-1 border-t pt-3 text-xs text-muted-foreground">
            {row.request_id && (
              <div className="flex justify-between gap-3">
                <dt>{t('detail.requestId')}</dt>
                <dd className="font-mono break-all">{row.request_id}</dd>
              </div>
            )}
            {row.source_ip && (
              <div className="flex justify-between gap-3">
                <dt>{t('detail.sourceIp')}</dt>
                <dd className="font-mono">{row.source_ip}</dd>
              </div>
            )}
          </dl>
        )}
      </PopoverContent>
    </Popover>
  )
}

export function useLogsColumns(all: boolean): ColumnDef<LogRow>[] {
  const { t } = useTranslation('logs')
  return useMemo<ColumnDef<LogRow>[]>(() => {
    const col = (id: string, title: string, rest: Partial<ColumnDef<LogRow>>): ColumnDef<LogRow> => ({
      id,
      header: title,
      enableSorting: false,
      ...rest,
      meta: { title, ...rest.meta },
    })
    const numeric = 'text-right tabular-nums whitespace-nowrap'
    return [
      col('created_at', t('columns.time'), {
        enableHiding: false,
        cell: ({ row }) => {
          const [date, time] = timestamp2string(row.original.created_at).split(' ')
          return (
            <span className="inline-block leading-tight whitespace-nowrap">
              {date}
              <span className="block text-xs text-muted-foreground">{time}</span>
            </span>
          )
        },
      }),
      col('type', t('columns.type'), { cell: ({ row }) => <LogTypeBadge type={row.original.type} /> }),
      ...(all
        ? [
            col('channel_id', t('columns.channel'), {
              cell: ({ row }) =>
                row.original.channel_id ? (
                  <span className="tabular-nums" data-testid="log-channel">
                    #{row.original.channel_id}
                  </span>
                ) : (
                  dash
                ),
            }),
            col('username', t('columns.user'), {
              cell: ({ row }) => (row.original.username ? <span data-testid="log-user">{row.original.username}</span> : dash),
            }),
          ]
        : []),
      col('token_name', t('columns.token'), {
        cell: ({ row }) => (row.original.token_name ? <Badge variant="outline">{row.original.token_name}</Badge> : dash),
      }),
      col('model_name', t('columns.model'), {
        cell: ({ row }) => {
          const { model_name: model, upstream_model: upstream } = row.original
          if (!model) return dash
          return (
            <div className="min-w-28">
              <Badge variant="secondary" className="font-mono" data-testid="log-model">
                {model}
              </Badge>
              {upstream && upstream !== model && <div className="mt-0.5 font-mono text-xs text-muted-foreground">→ {upstream}</div>}
            </div>
          )
        },
      }),
      col('prompt_tokens', t('columns.input'), {
        meta: { className: numeric },
        cell: ({ row }) => (row.original.prompt_tokens ? <span data-testid="log-input">{row.original.prompt_tokens.toLocaleString()}</span> : dash),
      }),
      col('completion_tokens', t('columns.output'), {
        meta: { className: numeric },
        cell: ({ row }) => (row.original.completion_tokens ? <span data-testid="log-output">{row.original.completion_tokens.toLocaleString()}</span> : dash),
      }),
      col('quota', t('columns.quota'), {
        meta: { className: numeric },
        cell: ({ row }) => (row.original.quota || row.original.metadata ? <LogsQuotaPopover row={row.original} /> : dash),
      }),
      col('request_time', t('columns.duration'), {
        meta: { className: numeric },
        cell: ({ row }) => (row.original.request_time ? seconds(row.original.request_time) : dash),
      }),
      col('first_response_time', t('columns.firstToken'), {
        meta: { className: numeric },
        cell: ({ row }) => (row.original.is_stream && row.original.first_response_time ? seconds(row.original.first_response_time) : dash),
      }),
      col('speed', t('columns.speed'), {
        meta: { className: numeric },
        cell: ({ row }) => {
          const tps = tokensPerSecond(row.original)
          return tps === null ? dash : t('tokensPerSecond', { value: tps.toFixed(1) })
        },
      }),
      col('is_stream', t('columns.stream'), {
        cell: ({ row }) =>
          row.original.type === LOG_TYPE.CONSUME || row.original.type === LOG_TYPE.ERROR ? (
            <Badge variant="outline" className={row.original.is_stream ? 'border-primary/40 text-primary' : 'text-muted-foreground'}>
              {row.original.is_stream ? t('stream.yes') : t('stream.no')}
            </Badge>
          ) : (
            dash
          ),
      }),
      col('content', t('columns.detail'), { cell: ({ row }) => <Detail row={row.original} /> }),
    ]
  }, [t, all])
}
