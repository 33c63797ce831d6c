/**
 * Create / edit a payment gateway in a side sheet: name, type, currency (limited to what the type
 * charges in), icon, fees, sort, enabled, notify domain, then the type's own config fields as the
 * server lists them (GET /api/payment/types). Secrets are write-only: the form never shows them,
 * says whether one is stored, and an empty secret keeps the stored one. In edit mode the notify
 * URL to paste into the gateway's dashboard is shown with a copy button.
 */
import { useEffect, useMemo } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { useQuery } from '@tanstack/react-query'
import { zodResolver } from '@hookform/resolvers/zod'
import { Copy, Loader2 } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { z } from 'zod'
import { Button } from '@/components/ui/button'
import { Form, FormControl, FormDescription, FormField, FormItem, FormLabel, FormMessage } from '@/components/ui/form'
import { Input } from '@/components/ui/input'
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select'
import { Separator } from '@/components/ui/separator'
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet'
import { Skeleton } from '@/components/ui/skeleton'
import { Textarea } from '@/components/ui/textarea'
import { InputField, SwitchField } from '@/components/form-fields'
import { PasswordInput } from '@/components/password-input'
import { copyText } from '@/lib/clipboard'
import { isApiError } from '@/lib/api-client'
import { GATEWAY_TYPES, gatewayQueryOptions, gatewayTypesQueryOptions, useSaveGateway, type ConfigField, type Gateway, type GatewayDetail, type GatewayTypeInfo } from '../api'

const number = (min: number, max: number, msg: string) =>
  z
    .string()
    .trim()
    .refine((v) => v !== '' && Number.isFinite(Number(v)) && Number(v) >= min && Number(v) <= max, msg)

const schema = z.object({
  name: z.string().trim().min(1, 'payments:form.required').max(100),
  type: z.enum(GATEWAY_TYPES),
  currency: z.enum(['USD', 'CNY']),
  // The spec requires an icon: users pick a gateway by it on the top-up page.
  icon: z.string().trim().min(1, 'payments:form.iconRequired').pipe(z.url('payments:form.url')),
  fixed_fee: number(0, 1_000_000, 'payments:form.fee').refine((v) => /^\d+(\.\d{1,2})?$/.test(v), 'payments:form.cents'),
  percent_fee: number(0, 0.99, 'payments:form.percent'),
  sort: number(0, 1_000_000, 'payments:form.sort').refine((v) => /^\d+$/.test(v), 'payments:form.sort'),
  enable: z.boolean(),
  notify_domain: z.union([z.literal(''), z.url('payments:form.url')]),
  config: z.record(z.string(), z.string().optional()),
})
type Values = z.infer<typeof schema>
/** Radix selects cannot hold '' (Epay's "the gateway's own cashier" pay type). */
const NONE = '__none'

export function GatewaySheet({ open, onOpenChange, row }: { open: boolean; onOpenChange: (open: boolean) => void; row?: Gateway }) {
  const { t } = useTranslation('payments')
  const types = useQuery(gatewayTypesQueryOptions).data
  const detail = useQuery({ ...gatewayQueryOptions(row?.id ?? 0), enabled: open && Boolean(row) })
  const ready = types && (!row || detail.data)
  return (
    <Sheet open={open} onOpenChange={onOpenChange}>
      <SheetContent className="w-full gap-0 p-0 sm:max-w-xl" data-testid="gateway-sheet">
        <div className="border-b px-6 py-4 pr-12">
          <SheetTitle>{row ? t('form.editTitle', { name: row.name }) : t('form.createTitle')}</SheetTitle>
          <SheetDescription>{t('form.description')}</SheetDescription>
        </div>
        {ready ? (
          <GatewayForm key={row?.id ?? 'new'} types={types} gateway={row ? detail.data : undefined} onDone={() => onOpenChange(false)} />
        ) : (
          <div className="grid gap-4 p-6">
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} className="h-14 w-full" />
            ))}
          </div>
        )}
      </SheetContent>
    </Sheet>
  )
}

function defaults(gateway: GatewayDetail | undefined): Values {
  return {
    name: gateway?.name ?? '',
    type: gateway?.type ?? 'stripe',
    currency: gateway?.currency ?? 'USD',
    icon: gateway?.icon ?? '',
    fixed_fee: String(gateway?.fixed_fee ?? 0),
    percent_fee: String(gateway?.percent_fee ?? 0),
    sort: String(gateway?.sort ?? 0),
    enable: gateway?.enable ?? true,
    notify_domain: gateway?.notify_domain ?? '',
    config: { ...(gateway?.config ?? {}) },
  }
}

function SectionTitle({ children }: { children: string }) {
  return <h3 className="text-sm font-semibold text-muted-foreground sm:col-span-2">{children}</h3>
}

function GatewayForm({ types, gateway, onDone }: { types: GatewayTypeInfo[]; gateway?: GatewayDetail; onDone: () => void }) {
  const { t } = useTranslation('payments')
  const save = useSaveGateway()
  const form = useForm<Values>({ resolver: zodResolver(schema), defaultValues: defaults(gateway) })
  const type = useWatch({ control: form.control, name: 'type' })
  const info = useMemo(() => types.find((ty) => ty.type === type), [types, type])
  const sameType = gateway?.type === type

  // A type that charges only in CNY forces the currency.
  useEffect(() => {
    if (info && !info.currencies.includes(form.getValues('currency'))) form.setValue('currency', info.currencies[0]!)
  }, [info, form])

  const onSubmit = (v: Values) => {
    const config: Record<string, string> = {}
    for (const f of info?.fields ?? []) {
      const value = (v.config[f.key] ?? '').trim()
      config[f.key] = value === NONE ? '' : value
    }
    const body = { ...v, fixed_fee: Number(v.fixed_fee), percent_fee: Number(v.percent_fee), sort: Number(v.sort), config }
    save.mutate(gateway ? { ...body, id: gateway.id } : body, {
      onSuccess: onDone,
      onError: (err) => {
        if (!isApiError(err)) return
        for (const [field, message] of Object.entries(err.fields)) {
          if (field.startsWith('config.') || field in form.getValues()) form.setError(field as keyof Values, { type: 'server', message })
        }
      },
    })
  }

  const fieldLabel = (f: ConfigField) => t(`fields.${type}.${f.key}`, { defaultValue: t(`fields.common.${f.key}`, { defaultValue: f.key }) })
  const fieldHint = (f: ConfigField) => t(`hints.${type}.${f.key}`, { defaultValue: '' })

  return (
    <>
      <div className="flex-1 overflow-y-auto px-6 py-5">
        <Form {...form}>
          <form id="gateway-form" onSubmit={form.handleSubmit(onSubmit)} noValidate className="grid gap-5 sm:grid-cols-2">
            {gateway && (
              <div className="grid gap-2 rounded-lg border bg-muted/40 p-3 sm:col-span-2">
                <span className="text-sm font-medium">{t('form.notifyUrl')}</span>
                <div className="flex gap-2">
                  <Input readOnly value={gateway.notify_url} className="font-mono text-xs" data-testid="gateway-notify-url" onFocus={(e) => e.currentTarget.select()} />
                  <Button type="button" variant="outline" size="icon" onClick={() => copyText(gateway.notify_url)} aria-label={t('actions.copy')}>
                    <Copy />
                  </Button>
                </div>
                <span className="text-xs text-muted-foreground">{t(type === 'stripe' ? 'form.notifyUrlStripe' : 'form.notifyUrlHint')}</span>
              </div>
            )}
            <SectionTitle>{t('form.sectionBasics')}</SectionTitle>
            <InputField control={form.control} name="name" label={t('columns.name')} placeholder={t('form.namePlaceholder')} />
            <FormField
              control={form.control}
              name="type"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('columns.type')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger data-testid="gateway-type" className="w-full">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {types.map((ty) => (
                        <SelectItem key={ty.type} value={ty.type}>
                          {t(`types.${ty.type}`)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormMessage />
                </FormItem>
              )}
            />
            <FormField
              control={form.control}
              name="currency"
              render={({ field }) => (
                <FormItem>
                  <FormLabel>{t('columns.currency')}</FormLabel>
                  <Select value={field.value} onValueChange={field.onChange}>
                    <FormControl>
                      <SelectTrigger data-testid="gateway-currency" className="w-full">
                        <SelectValue />
                      </SelectTrigger>
                    </FormControl>
                    <SelectContent>
                      {(info?.currencies ?? ['USD', 'CNY']).map((c) => (
                        <SelectItem key={c} value={c}>
                          {t(`currency.${c}`)}
                        </SelectItem>
                      ))}
                    </SelectContent>
                  </Select>
                  <FormDescription>{t('form.currencyHint')}</FormDescription>
                  <FormMessage />
                </FormItem>
              )}
            />
            <InputField control={form.control} name="sort" type="number" inputMode="numeric" min={0} label={t('columns.sort')} description={t('form.sortHint')} />
            <InputField control={form.control} name="fixed_fee" inputMode="decimal" label={t('columns.fixedFee')} description={t('form.fixedFeeHint')} />
            <InputField control={form.control} name="percent_fee" inputMode="decimal" label={t('columns.percentFee')} description={t('form.percentFeeHint')} />
            <InputField control={form.control} name="icon" label={t('form.icon')} className="sm:col-span-2" placeholder="https://…/icon.png" description={t('form.iconHint')} />
            <InputField
              control={form.control}
              name="notify_domain"
              label={t('form.notifyDomain')}
              className="sm:col-span-2"
              placeholder="https://pay.example.com"
              description={t('form.notifyDomainHint')}
            />
            <SwitchField control={form.control} name="enable" label={t('columns.enable')} description={t('form.enableHint')} className="sm:col-span-2" />

            <Separator className="sm:col-span-2" />
            <SectionTitle>{t('form.sectionConfig', { type: t(`types.${type}`) })}</SectionTitle>
            {(info?.fields ?? []).map((f) => (
              <FormField
                key={`${type}-${f.key}`}
                control={form.control}
                name={`config.${f.key}` as 'config'}
                render={({ field }) => {
                  const value = (field.value as unknown as string | undefined) ?? ''
                  const stored = Boolean(sameType && gateway?.config_set?.[f.key])
                  const placeholder = f.secret ? (stored ? t('form.secretStored') : t('form.secretEmpty')) : (f.default ?? '')
                  const props = {
                    name: field.name,
                    value,
                    onChange: field.onChange,
                    onBlur: field.onBlur,
                    placeholder,
                    autoComplete: 'off',
                    spellCheck: false,
                    'data-testid': `config-${f.key}`,
                  }
                  const hint = fieldHint(f)
                  return (
                    <FormItem className={f.kind === 'textarea' || f.advanced ? 'sm:col-span-2' : undefined}>
                      <FormLabel>
                        {fieldLabel(f)}
                        {!f.required && <span className="font-normal text-muted-foreground">{t('form.optional')}</span>}
                      </FormLabel>
                      <FormControl>
                        {f.kind === 'select' ? (
                          <Select value={(value === '' ? (f.default ?? f.options?.[0] ?? '') : value) || NONE} onValueChange={field.onChange}>
                            <SelectTrigger className="w-full" data-testid={`config-${f.key}`}>
                              <SelectValue />
                            </SelectTrigger>
                            <SelectContent>
                              {(f.options ?? []).map((o) => (
                                <SelectItem key={o || NONE} value={o || NONE}>
                                  {t(`options.${type}.${o || 'none'}`, { defaultValue: o || '—' })}
                                </SelectItem>
                              ))}
                            </SelectContent>
                          </Select>
                        ) : f.kind === 'textarea' ? (
                          f.secret ? (
                            <Textarea {...props} rows={4} className="font-mono text-xs [-webkit-text-security:disc]" />
                          ) : (
                            <Textarea {...props} rows={4} className="font-mono text-xs" />
                          )
                        ) : f.secret ? (
                          <PasswordInput {...props} />
                        ) : (
                          <Input {...props} />
                        )}
                      </FormControl>
                      {(hint || f.secret) && <FormDescription>{[hint, f.secret ? t('form.secretHint') : ''].filter(Boolean).join(' ')}</FormDescription>}
                      <FormMessage />
                    </FormItem>
                  )
                }}
              />
            ))}
          </form>
        </Form>
      </div>
      <div className="flex justify-end gap-2 border-t px-6 py-4">
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          {t('form.cancel')}
        </Button>
        <Button type="submit" form="gateway-form" disabled={save.isPending} data-testid="gateway-submit">
          {save.isPending && <Loader2 className="animate-spin" />}
          {gateway ? t('form.save') : t('form.create')}
        </Button>
      </div>
    </>
  )
}
