/**
 * Redemption-code top-up: the code box (POST /api/user/topup) and where to buy codes — the site's
 * top_up_link as a button, or 'Admin setup required!' when neither it nor an online gateway exists.
 */
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { ExternalLink, Loader2, TicketCheck } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card'
import { Form } from '@/components/ui/form'
import { InputField } from '@/components/form-fields'
import { applyFieldErrors } from '@/lib/handle-error'
import { useSiteInfo } from '@/features/site/api'
import { useRedeem } from '../api'
import { redeemSchema, type RedeemValues } from '../schema'

export function RedeemCard({ hasGateways = false }: { hasGateways?: boolean }) {
  const { t } = useTranslation('topup')
  const { top_up_link: link } = useSiteInfo()
  const redeem = useRedeem()
  const form = useForm<RedeemValues>({ resolver: zodResolver(redeemSchema), defaultValues: { key: '' } })
  const onSubmit = ({ key }: RedeemValues) =>
    redeem.mutate(key, {
      onSuccess: () => form.reset({ key: '' }),
      onError: (err) => applyFieldErrors(form, err),
    })
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('redeem.title')}</CardTitle>
        <CardDescription>{t('redeem.description')}</CardDescription>
      </CardHeader>
      <CardContent>
        <Form {...form}>
          <form id="redeem-form" onSubmit={form.handleSubmit(onSubmit)} className="flex flex-col gap-3 sm:flex-row sm:items-start" noValidate>
            <InputField
              control={form.control}
              name="key"
              label={<span className="sr-only">{t('redeem.label')}</span>}
              placeholder={t('redeem.placeholder')}
              autoComplete="off"
              spellCheck={false}
              className="flex-1"
            />
            <Button type="submit" disabled={redeem.isPending} className="sm:w-32" data-testid="redeem-submit">
              {redeem.isPending ? <Loader2 className="animate-spin" /> : <TicketCheck />}
              {t('redeem.submit')}
            </Button>
          </form>
        </Form>
      </CardContent>
      <CardFooter className="flex-wrap justify-between gap-3 border-t text-sm">
        <span className="text-muted-foreground">{t('redeem.needCode')}</span>
        {link ? (
          <Button variant="outline" size="sm" asChild>
            <a href={link} target="_blank" rel="noopener noreferrer" data-testid="buy-codes">
              {t('redeem.buy')}
              <ExternalLink />
            </a>
          </Button>
        ) : hasGateways ? (
          <span className="text-muted-foreground">{t('redeem.orPayOnline')}</span>
        ) : (
          <span className="font-medium text-warning" data-testid="buy-codes-missing">
            {t('redeem.adminSetup')}
          </span>
        )}
      </CardFooter>
    </Card>
  )
}
