/**
 * /panel/system (root only; Settings → System in the menu): the operator's first look — version,
 * cron jobs (last run, duration, result, next run), channel health and dead letters, D1 size and
 * its largest tables, KV / Durable Object / D1 reachability, the metrics and OTLP configuration
 * with a "send test" for OTLP, the alert channels and their failed deliveries, and the Worker variables' check. Data: GET /api/system/.
 */
import type { ReactNode } from 'react'
import { useQuery } from '@tanstack/react-query'
import { Link } from '@tanstack/react-router'
import { BellRing, RefreshCw, Send } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { PageHeader } from '@/components/page-header'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Skeleton } from '@/components/ui/skeleton'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import { timestamp2string } from '@/lib/format'
import { notify } from '@/lib/notify'
import type { CronJob, Part, Probe, SystemReport } from '@contract/system'
import { failed, systemQueryOptions, useOtlpTest } from './api'

const when = (ms: number | null) => (ms ? timestamp2string(Math.floor(ms / 1000)) : '—')

function bytes(n: number | null): string {
  if (n === null) return '—'
  const units = ['B', 'KB', 'MB', 'GB']
  let v = n
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${v.toFixed(u === 0 ? 0 : 1)} ${units[u]}`
}

function Section({ title, description, children, testId }: { title: string; description?: string; children: ReactNode; testId: string }) {
  return (
    <Card className="gap-4" data-testid={testId}>
      <CardHeader className="px-4 sm:px-6">
        <CardTitle className="text-base">{title}</CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent className="grid gap-3 px-4 sm:px-6">{children}</CardContent>
    </Card>
  )
}

/** One label / value line. */
function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
      <span className="text-muted-foreground">{label}</span>
      <span className="min-w-0 font-medium break-all">{children}</span>
    </div>
  )
}

function PartError({ part }: { part: { error: string } }) {
  const { t } = useTranslation('system')
  return <p className="text-sm text-destructive">{t('partFailed', { error: part.error })}</p>
}

function ProbeBadge({ probe }: { probe: Probe }) {
  const { t } = useTranslation('system')
  return (
    <Badge variant={probe.ok ? 'success' : 'destructive'} title={probe.error}>
      {probe.ok ? t('reach.ok', { ms: probe.ms }) : t('reach.failed')}
    </Badge>
  )
}

function CronCard({ cron }: { cron: Part<CronJob[]> }) {
  const { t } = useTranslation('system')
  return (
    <Section title={t('cron.title')} description={t('cron.description')} testId="system-cron">
      {failed(cron) ? (
        <PartError part={cron} />
      ) : (
        <div className="overflow-x-auto">
          <Table>
            <TableHeader>
              <TableRow>
                <TableHead>{t('cron.job')}</TableHead>
                <TableHead>{t('cron.lastRun')}</TableHead>
                <TableHead>{t('cron.duration')}</TableHead>
                <TableHead>{t('cron.result')}</TableHead>
                <TableHead>{t('cron.nextRun')}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {cron.map((j) => (
                <TableRow key={`${j.cron} ${j.job}`}>
                  <TableCell>
                    <div className="font-medium">{j.job}</div>
                    <code className="text-xs text-muted-foreground">{j.cron}</code>
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{when(j.last_run)}</TableCell>
                  <TableCell>{j.duration_ms === null ? '—' : `${j.duration_ms} ms`}</TableCell>
                  <TableCell>
                    {j.result === null ? (
                      <Badge variant="outline">{t('cron.never')}</Badge>
                    ) : (
                      <Badge variant={j.result === 'ok' ? 'success' : 'destructive'} title={j.error ?? undefined}>
                        {t(`cron.${j.result}`)}
                      </Badge>
                    )}
                  </TableCell>
                  <TableCell className="whitespace-nowrap">{when(j.next_run)}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      )}
    </Section>
  )
}

function HealthCard({ health }: { health: SystemReport['health'] }) {
  const { t } = useTranslation('system')
  return (
    <Section title={t('health.title')} testId="system-health">
      {failed(health) ? (
        <PartError part={health} />
      ) : (
        <>
          <Row label={t('health.enabled')}>{health.channels.enabled}</Row>
          <Row label={t('health.frozen')}>{health.channels.frozen}</Row>
          <Row label={t('health.disabled')}>{health.channels.disabled}</Row>
          <Row label={t('health.poolKeys')}>{health.pool_keys_disabled}</Row>
          <Row label={t('health.deadLetters')}>
            <Badge variant={health.dead_letters > 0 ? 'destructive' : 'success'}>{health.dead_letters}</Badge>
          </Row>
          <Row label={t('health.deadLettersOldest')}>{when(health.dead_letters_oldest_at && health.dead_letters_oldest_at * 1000)}</Row>
          <Row label={t('health.pendingReports')}>
            <span title={t('health.pendingReportsHint')}>
              {t('health.pendingReportsValue', { n: health.pending_reports.requests, oldest: when(health.pending_reports.oldest_at && health.pending_reports.oldest_at * 1000) })}
            </span>
          </Row>
        </>
      )}
    </Section>
  )
}

function DatabaseCard({ database }: { database: SystemReport['database'] }) {
  const { t } = useTranslation('system')
  return (
    <Section title={t('db.title')} description={failed(database) ? undefined : t(database.measure === 'bytes' ? 'db.byBytes' : 'db.byRows')} testId="system-database">
      {failed(database) ? (
        <PartError part={database} />
      ) : (
        <>
          <Row label={t('db.size')}>{bytes(database.size_bytes)}</Row>
          {database.tables.map((table) => (
            <Row key={table.name} label={table.name}>
              {database.measure === 'bytes' ? bytes(table.value) : table.value.toLocaleString()}
            </Row>
          ))}
        </>
      )}
    </Section>
  )
}

function TelemetryCard({ telemetry }: { telemetry: SystemReport['telemetry'] }) {
  const { t } = useTranslation('system')
  const test = useOtlpTest()
  const { otlp, metrics } = telemetry
  const onOff = (on: boolean) => <Badge variant={on ? 'success' : 'outline'}>{on ? t('on') : t('off')}</Badge>
  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: (r) => (r.ok ? notify.success(t('otlp.testOk', { status: r.status, ms: r.ms })) : notify.error(t('otlp.testFailed', { error: r.error }))),
    })
  return (
    <Section title={t('telemetry.title')} description={t('telemetry.description')} testId="system-telemetry">
      <Row label={t('telemetry.metricsToken')}>{onOff(metrics.token_configured)}</Row>
      <Row label={t('telemetry.analyticsEngine')}>{onOff(metrics.analytics_engine)}</Row>
      <Row label={t('otlp.endpoint')}>{otlp.endpoint ? <code className="text-xs">{otlp.endpoint}</code> : onOff(false)}</Row>
      <Row label={t('otlp.headers')}>{onOff(otlp.headers_configured)}</Row>
      <Row label={t('otlp.sampleRate')}>{otlp.sample_rate}</Row>
      <Row label={t('otlp.recordContent')}>{onOff(otlp.record_content)}</Row>
      <Row label={t('otlp.isolate')}>
        {t('otlp.counters', { exported: otlp.isolate.exported, failed: otlp.isolate.failed, dropped: otlp.isolate.dropped, queued: otlp.isolate.queued })}
      </Row>
      {otlp.isolate.lastError && <p className="text-xs break-all text-destructive">{otlp.isolate.lastError}</p>}
      <div className="flex justify-end">
        <Button type="button" variant="outline" onClick={sendTest} disabled={!otlp.endpoint || test.isPending} data-testid="system-otlp-test">
          <Send />
          {t('otlp.sendTest')}
        </Button>
      </div>
    </Section>
  )
}

function AlertsCard({ alerts }: { alerts: SystemReport['alerts'] }) {
  const { t } = useTranslation('system')
  return (
    <Section title={t('alerts.title')} description={t('alerts.description')} testId="system-alerts">
      {failed(alerts) ? (
        <PartError part={alerts} />
      ) : (
        <>
          <Row label={t('alerts.channels')}>{t('alerts.channelCount', { enabled: alerts.enabled, total: alerts.channels })}</Row>
          <Row label={t('alerts.pending')}>{alerts.pending}</Row>
          <Row label={t('alerts.failed')}>
            <Badge variant={alerts.failed_24h > 0 ? 'destructive' : 'success'}>{alerts.failed_24h}</Badge>
          </Row>
          {alerts.last_failure && (
            <p className="text-xs break-all text-destructive" data-testid="system-alerts-last-failure">
              {t('alerts.lastFailure', { ...alerts.last_failure, at: when(alerts.last_failure.at * 1000) })}
            </p>
          )}
          <div className="flex justify-end">
            <Button asChild variant="outline">
              <Link to="/panel/notify">
                <BellRing />
                {t('alerts.manage')}
              </Link>
            </Button>
          </div>
        </>
      )}
    </Section>
  )
}

function EnvironmentCard({ environment, reach }: { environment: SystemReport['environment']; reach: SystemReport['reachability'] }) {
  const { t } = useTranslation('system')
  return (
    <Section title={t('env.title')} description={t('env.description')} testId="system-environment">
      <Row label="KV">
        <ProbeBadge probe={reach.kv} />
      </Row>
      <Row label="Durable Objects">
        <ProbeBadge probe={reach.durable_object} />
      </Row>
      <Row label="D1">
        <ProbeBadge probe={reach.d1} />
      </Row>
      <Row label={t('env.check')}>
        <Badge variant={environment.ok ? 'success' : 'destructive'}>{environment.ok ? t('env.valid') : t('env.invalid')}</Badge>
      </Row>
      {environment.error && <p className="text-sm text-destructive">{environment.error}</p>}
      {Object.entries(environment.variables).map(([k, v]) => (
        <Row key={k} label={k}>
          <code className="text-xs">{v || '—'}</code>
        </Row>
      ))}
      {Object.entries(environment.bindings).map(([k, v]) => (
        <Row key={k} label={k}>
          <Badge variant={v ? 'success' : 'outline'}>{v ? t('env.bound') : t('env.unbound')}</Badge>
        </Row>
      ))}
    </Section>
  )
}

export function System() {
  const { t } = useTranslation('system')
  const query = useQuery(systemQueryOptions())
  const report = query.data
  return (
    <>
      <PageHeader
        title={t('title')}
        description={t('description')}
        actions={
          <Button type="button" variant="outline" onClick={() => void query.refetch()} disabled={query.isFetching} data-testid="system-refresh">
            <RefreshCw className={query.isFetching ? 'animate-spin' : undefined} />
            {t('refresh')}
          </Button>
        }
      />
      {!report ? (
        <div className="grid gap-4 md:grid-cols-2">
          <Skeleton className="h-48" />
          <Skeleton className="h-48" />
        </div>
      ) : (
        <div className="grid gap-4" data-testid="system-page">
          <Section title={t('version.title')} testId="system-version">
            <Row label={t('version.version')}>{report.version.version}</Row>
            <Row label={t('version.consoleBuild')}>
              <code className="text-xs">{report.version.console_build || '—'}</code>
            </Row>
          </Section>
          <CronCard cron={report.cron} />
          <div className="grid gap-4 md:grid-cols-2">
            <HealthCard health={report.health} />
            <DatabaseCard database={report.database} />
            <TelemetryCard telemetry={report.telemetry} />
            <AlertsCard alerts={report.alerts} />
            <EnvironmentCard environment={report.environment} reach={report.reachability} />
          </div>
        </div>
      )}
    </>
  )
}
