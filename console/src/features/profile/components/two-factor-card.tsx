/**
 * The profile's security section: TOTP two-factor sign-in. Off: "Turn on" starts a setup that shows
 * the QR code, the secret and the ten backup codes (this once), confirmed with a first code. On: new
 * backup codes or turning it off, each with a current code (or a backup code).
 */
import { useState } from 'react'
import { useQuery } from '@tanstack/react-query'
import { QRCodeSVG } from 'qrcode.react'
import { Copy, Loader2, ShieldCheck, ShieldOff, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Badge } from '@/components/ui/badge'
import { Button } from '@/components/ui/button'
import { Card, CardAction, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { SecondFactorCodeInput } from '@/components/second-factor-code-input'
import { Skeleton } from '@/components/ui/skeleton'
import { copyText } from '@/lib/clipboard'
import { notify } from '@/lib/notify'
import { twoFactorStatusQueryOptions, useNewBackupCodes, useTwoFactorDisable, useTwoFactorEnable, useTwoFactorSetup } from '../two-factor-api'

function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('profile')
  return (
    <Alert variant="warning">
      <TriangleAlert />
      <AlertTitle>{t('twoFactor.backupShownOnce')}</AlertTitle>
      <AlertDescription className="w-full">
        <ul className="mt-2 grid grid-cols-2 gap-x-6 gap-y-1 font-mono text-sm text-foreground" data-testid="2fa-backup-codes">
          {codes.map((code) => (
            <li key={code}>{code}</li>
          ))}
        </ul>
        <Button type="button" variant="outline" size="sm" className="mt-3" onClick={() => copyText(codes.join('\n'))}>
          <Copy />
          {t('twoFactor.copyBackup')}
        </Button>
      </AlertDescription>
    </Alert>
  )
}

export function TwoFactorCard() {
  const { t } = useTranslation('profile')
  const status = useQuery(twoFactorStatusQueryOptions)
  const setup = useTwoFactorSetup()
  const enable = useTwoFactorEnable()
  const disable = useTwoFactorDisable()
  const regenerate = useNewBackupCodes()
  const [code, setCode] = useState('')
  const enabled = status.data?.enabled === true
  const started = setup.data && !enabled

  const run = (mutation: { mutate: (code: string, opts: { onSuccess: () => void }) => void }, message: string) =>
    mutation.mutate(code, {
      onSuccess: () => {
        setCode('')
        notify.success(message)
      },
    })

  return (
    <Card data-testid="2fa-card">
      <CardHeader>
        <CardTitle>{t('twoFactor.title')}</CardTitle>
        <CardDescription>{t('twoFactor.description')}</CardDescription>
        <CardAction>
          {status.data && (
            <Badge variant={enabled ? 'success' : 'secondary'} data-testid="2fa-status">
              {enabled ? t('twoFactor.on') : t('twoFactor.off')}
            </Badge>
          )}
        </CardAction>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!status.data && <Skeleton className="h-10" />}
        {status.data && !enabled && !started && (
          <div>
            <Button onClick={() => setup.mutate()} disabled={setup.isPending} data-testid="2fa-start">
              {setup.isPending ? <Loader2 className="animate-spin" /> : <ShieldCheck />}
              {t('twoFactor.turnOn')}
            </Button>
          </div>
        )}
        {started && (
          <>
            <p className="text-sm text-muted-foreground">{t('twoFactor.scan')}</p>
            <div className="flex flex-wrap items-start gap-6">
              <div className="rounded-md bg-white p-3">
                <QRCodeSVG value={setup.data.qr_code_data} size={160} />
              </div>
              <div className="grid min-w-0 flex-1 gap-1.5">
                <Label>{t('twoFactor.secret')}</Label>
                <div className="flex gap-2">
                  <Input readOnly value={setup.data.secret} className="font-mono" data-testid="2fa-secret" onFocus={(e) => e.currentTarget.select()} />
                  <Button type="button" variant="outline" size="icon" onClick={() => copyText(setup.data.secret)} aria-label={t('twoFactor.copySecret')}>
                    <Copy />
                  </Button>
                </div>
                <p className="text-xs text-muted-foreground">{t('twoFactor.secretHint')}</p>
              </div>
            </div>
            <BackupCodes codes={setup.data.backup_codes} />
            <div className="flex flex-wrap items-end gap-3">
              <SecondFactorCodeInput id="2fa-enable-code" label={t('twoFactor.code')} value={code} onChange={setCode} className="max-w-48" />
              <Button onClick={() => run(enable, t('twoFactor.enabled'))} disabled={enable.isPending || code.length < 6} data-testid="2fa-confirm">
                {enable.isPending && <Loader2 className="animate-spin" />}
                {t('twoFactor.confirm')}
              </Button>
            </div>
          </>
        )}
        {enabled && (
          <>
            <p className="text-sm text-muted-foreground">{t('twoFactor.remaining', { count: status.data?.backup_codes_remaining ?? 0 })}</p>
            {regenerate.data && <BackupCodes codes={regenerate.data.backup_codes} />}
            <SecondFactorCodeInput id="2fa-manage-code" label={t('twoFactor.code')} value={code} onChange={setCode} className="max-w-48" />
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" onClick={() => run(regenerate, t('twoFactor.regenerated'))} disabled={regenerate.isPending || code.length < 6}>
                {t('twoFactor.newBackup')}
              </Button>
              <Button variant="destructive" onClick={() => run(disable, t('twoFactor.disabled'))} disabled={disable.isPending || code.length < 6} data-testid="2fa-disable">
                <ShieldOff />
                {t('twoFactor.turnOff')}
              </Button>
            </div>
          </>
        )}
      </CardContent>
    </Card>
  )
}
