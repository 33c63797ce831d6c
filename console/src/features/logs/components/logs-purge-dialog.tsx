/**
 * Root only: delete every log created before a chosen date (DELETE /api/log/?target_timestamp=),
 * after a confirmation; shows how many rows were deleted.
 */
import { useState } from 'react'
import { Eraser, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { ConfirmDialog } from '@/components/confirm-dialog'
import { timestamp2string } from '@/lib/format'
import { useDeleteLogsBefore } from '../api'

/** 'YYYY-MM-DD' (local) → Unix seconds at local midnight. */
function dayStart(value: string): number | undefined {
  const [y, m, d] = value.split('-').map(Number)
  if (!y || !m || !d) return undefined
  return Math.floor(new Date(y, m - 1, d).getTime() / 1000)
}

export function LogsPurgeDialog() {
  const { t } = useTranslation('logs')
  const [open, setOpen] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const [date, setDate] = useState('')
  const [deleted, setDeleted] = useState<number | null>(null)
  const purge = useDeleteLogsBefore()
  const before = dayStart(date)
  const today = new Date()
  const max = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`

  return (
    <>
      <Button
        variant="outline"
        data-testid="logs-purge"
        onClick={() => {
          setDeleted(null)
          setOpen(true)
        }}
      >
        <Eraser />
        {t('purge.button')}
      </Button>
      <Dialog open={open} onOpenChange={(o) => !purge.isPending && setOpen(o)}>
        <DialogContent>
          <DialogHeader>
            <DialogTitle>{t('purge.title')}</DialogTitle>
            <DialogDescription>{t('purge.description')}</DialogDescription>
          </DialogHeader>
          <div className="grid gap-2">
            <Label htmlFor="logs-purge-date">{t('purge.date')}</Label>
            <Input id="logs-purge-date" type="date" value={date} max={max} onChange={(e) => setDate(e.target.value)} />
          </div>
          {deleted !== null && (
            <Alert data-testid="logs-purge-result">
              <AlertDescription>{t('purge.done', { count: deleted })}</AlertDescription>
            </Alert>
          )}
          <DialogFooter>
            <Button variant="outline" onClick={() => setOpen(false)}>
              {t('purge.close')}
            </Button>
            <Button variant="destructive" disabled={before === undefined || purge.isPending} onClick={() => setConfirming(true)}>
              {purge.isPending && <Loader2 className="animate-spin" />}
              {t('purge.submit')}
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
      <ConfirmDialog
        open={confirming}
        onOpenChange={(o) => !purge.isPending && setConfirming(o)}
        title={t('purge.confirmTitle')}
        description={before !== undefined ? t('purge.confirmDescription', { date: timestamp2string(before) }) : undefined}
        confirmText={t('purge.submit')}
        destructive
        pending={purge.isPending}
        onConfirm={() =>
          before !== undefined &&
          purge.mutate(before, {
            onSuccess: (count) => {
              setDeleted(count)
              setConfirming(false)
            },
          })
        }
      />
    </>
  )
}
