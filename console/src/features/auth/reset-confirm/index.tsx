/**
 * /user/reset?email=…&token=…: confirm the emailed reset link (POST /api/user/reset); the server
 * answers with a new password, shown once with a copy button. A bad link shows 'Invalid link'.
 */
import { Link, getRouteApi } from '@tanstack/react-router'
import { Copy, KeyRound, Loader2, TriangleAlert } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Label } from '@/components/ui/label'
import { copyText } from '@/lib/clipboard'
import { useConfirmReset } from '../api'
import { AuthCard } from '../components/auth-card'

const route = getRouteApi('/_public/user/reset')

export function ResetConfirm() {
  const { t } = useTranslation('auth')
  const { email, token } = route.useSearch()
  const confirm = useConfirmReset()
  const validLink = Boolean(email && token)

  return (
    <AuthCard
      title={t('resetConfirm.title')}
      description={validLink ? t('resetConfirm.description') : undefined}
      footer={
        <Link to="/login" className="font-medium text-primary hover:underline">
          {t('reset.backToLogin')}
        </Link>
      }
    >
      {!validLink || confirm.isError ? (
        <Alert variant="destructive" data-testid="invalid-link">
          <TriangleAlert />
          <AlertTitle>{t('resetConfirm.invalid')}</AlertTitle>
          <AlertDescription>{t('resetConfirm.invalidHint')}</AlertDescription>
        </Alert>
      ) : confirm.isSuccess ? (
        <div className="grid gap-3">
          <Label htmlFor="new-password">{t('resetConfirm.newPassword')}</Label>
          <div className="flex gap-2">
            <Input id="new-password" readOnly value={confirm.data} className="font-mono" />
            <Button type="button" variant="outline" size="icon" onClick={() => copyText(confirm.data)} aria-label={t('resetConfirm.copy')}>
              <Copy />
            </Button>
          </div>
          <p className="text-sm text-muted-foreground">{t('resetConfirm.changeHint')}</p>
        </div>
      ) : (
        <div className="grid gap-4">
          <div className="grid gap-2">
            <Label htmlFor="reset-email">{t('fields.email')}</Label>
            <Input id="reset-email" readOnly value={email} />
          </div>
          <Button onClick={() => confirm.mutate({ email: email!, token: token! })} disabled={confirm.isPending}>
            {confirm.isPending ? <Loader2 className="animate-spin" /> : <KeyRound />}
            {t('resetConfirm.submit')}
          </Button>
        </div>
      )}
    </AuthCard>
  )
}
