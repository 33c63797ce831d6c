/**
 * The dry-run report of an import, as the CLI prints it but as a table: rows read / written /
 * skipped per table, the problems (table + id, skipped), the notes (what has no equivalent here),
 * and whether the gateway accepts the import (the merge rule).
 */
import { AlertTriangle, Info, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table'
import type { PlannedImport, WireCheck } from '../api'

function MessageList({ items, testId }: { items: string[]; testId: string }) {
  return (
    <ul className="max-h-60 list-disc space-y-1 overflow-y-auto pl-5 text-sm break-words" data-testid={testId}>
      {items.map((item, i) => (
        <li key={i}>{item}</li>
      ))}
    </ul>
  )
}

export function ImportReport({ plan, check, checkError }: { plan: PlannedImport; check?: WireCheck; checkError?: string }) {
  const { t } = useTranslation('settings')
  const { report } = plan
  const written = report.tables.reduce((n, r) => n + r.written, 0)
  return (
    <div className="grid gap-4" data-testid="import-report">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <Badge variant="secondary">{report.source}</Badge>
        <Badge variant="outline">{t(`import.format.${report.format}`)}</Badge>
        <span className="text-muted-foreground">{t('import.report.summary', { ms: plan.ms })}</span>
      </div>
      <div className="overflow-x-auto rounded-md border">
        <Table data-testid="import-report-table">
          <TableHeader>
            <TableRow>
              <TableHead>{t('import.report.table')}</TableHead>
              <TableHead className="text-right">{t('import.report.read')}</TableHead>
              <TableHead className="text-right">{t('import.report.written')}</TableHead>
              <TableHead className="text-right">{t('import.report.skipped')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {report.tables.map((r) => (
              <TableRow key={r.table}>
                <TableCell className="font-mono text-xs whitespace-normal break-words">{r.table}</TableCell>
                <TableCell className="text-right tabular-nums">{r.read}</TableCell>
                <TableCell className="text-right tabular-nums">{r.written}</TableCell>
                <TableCell className={r.skipped ? 'text-right font-medium text-warning tabular-nums' : 'text-right tabular-nums'}>{r.skipped}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </div>
      {report.problems.length > 0 && (
        <Alert variant="warning">
          <AlertTriangle />
          <AlertTitle>{t('import.report.problems', { count: report.problems.length })}</AlertTitle>
          <AlertDescription>
            <p>{t('import.report.problemsHint')}</p>
            <MessageList items={report.problems} testId="import-problems" />
          </AlertDescription>
        </Alert>
      )}
      {report.notes.length > 0 && (
        <Alert>
          <Info />
          <AlertTitle>{t('import.report.notes')}</AlertTitle>
          <AlertDescription>
            <MessageList items={report.notes} testId="import-notes" />
          </AlertDescription>
        </Alert>
      )}
      {!check ? (
        checkError ? (
          <Alert variant="destructive">
            <AlertTriangle />
            <AlertTitle>{t('import.report.checkFailed')}</AlertTitle>
            <AlertDescription>{checkError}</AlertDescription>
          </Alert>
        ) : (
          <p className="flex items-center gap-2 text-sm text-muted-foreground">
            <Loader2 className="size-4 animate-spin" />
            {t('import.report.checking')}
          </p>
        )
      ) : check.conflicts.length > 0 ? (
        <Alert variant="destructive" data-testid="import-conflicts">
          <AlertTriangle />
          <AlertTitle>{t('import.report.conflicts')}</AlertTitle>
          <AlertDescription>
            <MessageList items={check.conflicts} testId="import-conflict-list" />
          </AlertDescription>
        </Alert>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="import-ready">
          {t('import.report.ready', { rows: written })}
          {check.ownUsers > 0 && ` ${t('import.report.ownUsers', { count: check.ownUsers })}`}
        </p>
      )}
    </div>
  )
}
