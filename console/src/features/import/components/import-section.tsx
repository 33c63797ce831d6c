/**
 * Settings → Other → Import (root): choose a one-api / one-hub database (SQLite file, or a
 * mysqldump / pg_dump text), see the dry-run report, then apply it with a progress bar. Same rules
 * as `npm run import`: a re-run changes nothing, and a gateway with users of its own needs merge.
 */
import { useMemo, useState } from 'react'
import { CheckCircle2, FileSearch, Loader2, Upload } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Switch } from '@/components/ui/switch'
import { notify } from '@/lib/notify'
import { useAuthUser } from '@/stores/auth-store'
import { adoptSourceUser, sourceRootWithId, useApplyImport, useDryRun, useTargetCheck, type ApplyResult, type ImportOptions, type PlannedImport } from '../api'
import { ImportReport } from './import-report'

function ProgressBar({ done, total }: { done: number; total: number }) {
  const { t } = useTranslation('settings')
  const percent = total ? Math.round((done / total) * 100) : 0
  return (
    <div className="grid gap-1.5" data-testid="import-progress">
      <div
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={total}
        aria-valuenow={done}
        aria-label={t('import.progressLabel')}
        className="h-2 w-full overflow-hidden rounded-full bg-muted"
      >
        <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground tabular-nums">{t('import.progress', { done, total, percent })}</p>
    </div>
  )
}

function SwitchField({ id, checked, onChange, label, hint }: { id: string; checked: boolean; onChange: (v: boolean) => void; label: string; hint: string }) {
  return (
    <div className="flex items-start justify-between gap-4 rounded-md border p-3">
      <div className="grid gap-1">
        <Label htmlFor={id}>{label}</Label>
        <p className="text-xs text-muted-foreground">{hint}</p>
      </div>
      <Switch id={id} checked={checked} onCheckedChange={onChange} data-testid={id} />
    </div>
  )
}

export function ImportSection() {
  const { t } = useTranslation('settings')
  const me = useAuthUser()
  const [file, setFile] = useState<File | null>(null)
  const [options, setOptions] = useState<ImportOptions>({ from: 'auto', withLogs: false, merge: false })
  const [planned, setPlanned] = useState<{ plan: PlannedImport; run: number } | null>(null)
  const [adopt, setAdopt] = useState(false)
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null)
  const [result, setResult] = useState<ApplyResult | null>(null)
  const dryRun = useDryRun()
  const apply = useApplyImport((done, total) => setProgress({ done, total }))
  const busy = dryRun.isPending || apply.isPending

  // The source's root usually holds the id of the root signed in here: it may be adopted instead.
  const adoptable = planned && me ? sourceRootWithId(planned.plan, me.id) : undefined
  const plan = useMemo(() => {
    if (!planned) return null
    if (!adopt || !adoptable || !me) return planned.plan
    return { ...adoptSourceUser(planned.plan, me.id, t('import.adoptNote', { id: me.id, name: String(adoptable.username), me: me.username })), ms: planned.plan.ms }
  }, [planned, adopt, adoptable, me, t])
  const check = useTargetCheck(plan, `${planned?.run ?? 0}:${adopt && adoptable ? 1 : 0}`, options.merge)

  /** Any change of what is read makes the report stale. */
  const reset = () => {
    setPlanned(null)
    setResult(null)
    setProgress(null)
  }

  const runDryRun = () => {
    if (!file) return
    reset()
    dryRun.mutate({ file, options }, { onSuccess: (p) => setPlanned({ plan: p, run: Date.now() }), onError: (e) => notify.error(t('import.readFailed', { message: e.message })) })
  }

  const runApply = () => {
    if (!plan) return
    setResult(null)
    apply.mutate(
      { plan, merge: options.merge },
      {
        onSuccess: (r) => {
          setResult(r)
          notify.success(t('import.doneToast'))
          void check.refetch()
        },
        onError: (e) => notify.error(t('import.applyFailed', { message: e.message })),
      }
    )
  }

  return (
    <Card id="import" data-testid="settings-import" className="scroll-mt-24 gap-5">
      <CardHeader>
        <CardTitle>{t('sections.import.title')}</CardTitle>
        <CardDescription>{t('sections.import.description')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div className="grid gap-4 md:grid-cols-2">
          <div className="grid gap-2">
            <Label htmlFor="import-file">{t('import.file')}</Label>
            <Input
              id="import-file"
              type="file"
              accept=".db,.sqlite,.sqlite3,.sql,.txt,application/vnd.sqlite3,application/sql"
              disabled={busy}
              data-testid="import-file"
              onChange={(e) => {
                setFile(e.target.files?.[0] ?? null)
                reset()
              }}
            />
            <p className="text-xs text-muted-foreground">{t('import.fileHint')}</p>
          </div>
          <div className="grid content-start gap-2">
            <Label htmlFor="import-from">{t('import.from')}</Label>
            <Select
              value={options.from}
              disabled={busy}
              onValueChange={(from) => {
                setOptions((o) => ({ ...o, from: from as ImportOptions['from'] }))
                reset()
              }}
            >
              <SelectTrigger id="import-from" className="w-full" data-testid="import-from">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value="auto">{t('import.fromAuto')}</SelectItem>
                <SelectItem value="one-api">one-api</SelectItem>
                <SelectItem value="one-hub">one-hub</SelectItem>
              </SelectContent>
            </Select>
          </div>
        </div>
        <div className="grid gap-3 md:grid-cols-2">
          <SwitchField
            id="import-with-logs"
            checked={options.withLogs}
            onChange={(withLogs) => {
              setOptions((o) => ({ ...o, withLogs }))
              reset()
            }}
            label={t('import.withLogs')}
            hint={t('import.withLogsHint')}
          />
          <SwitchField
            id="import-merge"
            checked={options.merge}
            onChange={(merge) => {
              setOptions((o) => ({ ...o, merge }))
              setResult(null)
            }}
            label={t('import.merge')}
            hint={t('import.mergeHint')}
          />
          {adoptable && me && (
            <SwitchField
              id="import-adopt"
              checked={adopt}
              onChange={(v) => {
                setAdopt(v)
                setResult(null)
              }}
              label={t('import.adopt', { id: me.id, name: String(adoptable.username) })}
              hint={t('import.adoptHint', { me: me.username })}
            />
          )}
        </div>
        {plan && <ImportReport plan={plan} check={check.data} checkError={check.error?.message} />}
        {progress && (apply.isPending || result) && <ProgressBar done={progress.done} total={progress.total} />}
        {result && (
          <Alert data-testid="import-result">
            <CheckCircle2 className="text-success" />
            <AlertTitle>{t('import.doneTitle')}</AlertTitle>
            <AlertDescription>
              <p>{t('import.done', { applied: result.applied, batches: result.batches, seconds: (result.ms / 1000).toFixed(1) })}</p>
              {result.problems.length > 0 && (
                <>
                  <p className="mt-2 font-medium">{t('import.report.problems', { count: result.problems.length })}</p>
                  <ul className="max-h-40 list-disc overflow-y-auto pl-5 break-words">
                    {result.problems.map((p, i) => (
                      <li key={i}>{p}</li>
                    ))}
                  </ul>
                </>
              )}
            </AlertDescription>
          </Alert>
        )}
      </CardContent>
      <CardFooter className="flex flex-wrap justify-end gap-2 border-t">
        <Button variant="outline" onClick={runDryRun} disabled={!file || busy} data-testid="import-dry-run">
          {dryRun.isPending ? <Loader2 className="animate-spin" /> : <FileSearch />}
          {dryRun.isPending ? t('import.reading') : t('import.dryRun')}
        </Button>
        <Button onClick={runApply} disabled={!plan || !check.data || check.data.conflicts.length > 0 || check.isFetching || busy} data-testid="import-apply">
          {apply.isPending ? <Loader2 className="animate-spin" /> : <Upload />}
          {apply.isPending ? t('import.applying') : t('import.apply')}
        </Button>
      </CardFooter>
    </Card>
  )
}
