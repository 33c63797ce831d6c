/**
 * Range picker of the dashboard and analytics pages: a segmented control with the last 7 / 14 /
 * 30 days and a "custom" popover holding a small from/to form (at most 366 days, from ≤ to).
 * The choice goes to the URL through `onChange`; the page reads it back with resolveRange(), and a
 * custom range in the URL that is not a real one says "Invalid date" beside the preset shown instead.
 */
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { zodResolver } from '@hookform/resolvers/zod'
import { CalendarRange } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { Form } from '@/components/ui/form'
import { Popover, PopoverContent, PopoverTrigger } from '@/components/ui/popover'
import { InputField } from '@/components/form-fields'
import { cn } from '@/lib/utils'
import { RANGE_PRESETS, customRangeSchema, todayUtc, type CustomRangeValues, type DayRange, type RangeSearch } from '../range'

export function DateRangePicker({ range, onChange }: { range: DayRange; onChange: (search: RangeSearch) => void }) {
  const { t } = useTranslation('dashboard')
  const [open, setOpen] = useState(false)
  return (
    <div className="flex flex-wrap items-center gap-2" data-testid="range-picker">
      <div className="inline-flex items-center rounded-lg border bg-background p-0.5 shadow-xs dark:bg-input/30" role="group" aria-label={t('range.label')}>
        {RANGE_PRESETS.map((days) => (
          <Button
            key={days}
            size="sm"
            variant="ghost"
            aria-pressed={range.preset === days}
            className={cn('h-7 px-2.5 text-muted-foreground', range.preset === days && 'bg-accent text-accent-foreground')}
            onClick={() => onChange({ days, from: undefined, to: undefined })}
          >
            {t('range.lastDays', { count: days })}
          </Button>
        ))}
        <Popover open={open} onOpenChange={setOpen}>
          <PopoverTrigger asChild>
            <Button
              size="sm"
              variant="ghost"
              aria-pressed={!range.preset}
              className={cn('h-7 px-2.5 text-muted-foreground', !range.preset && 'bg-accent text-accent-foreground')}
              data-testid="range-custom"
            >
              <CalendarRange />
              {range.preset ? t('range.custom') : `${range.from} – ${range.to}`}
            </Button>
          </PopoverTrigger>
          <PopoverContent align="end" className="w-[min(20rem,calc(100vw-2rem))]">
            <CustomRangeForm
              range={range}
              onApply={(values) => {
                setOpen(false)
                onChange({ days: undefined, ...values })
              }}
            />
          </PopoverContent>
        </Popover>
      </div>
      {range.invalid && (
        <p className="text-xs text-destructive" role="alert" data-testid="range-invalid">
          {t('range.errors.invalid')}
        </p>
      )}
    </div>
  )
}

function CustomRangeForm({ range, onApply }: { range: DayRange; onApply: (values: CustomRangeValues) => void }) {
  const { t } = useTranslation('dashboard')
  const form = useForm<CustomRangeValues>({
    resolver: zodResolver(customRangeSchema),
    defaultValues: { from: range.from, to: range.to },
  })
  const today = todayUtc()
  return (
    <Form {...form}>
      <form className="grid gap-3" onSubmit={form.handleSubmit(onApply)} data-testid="range-form">
        <p className="text-sm font-medium">{t('range.customTitle')}</p>
        <InputField control={form.control} name="from" type="date" max={today} label={t('range.from')} />
        <InputField control={form.control} name="to" type="date" max={today} label={t('range.to')} />
        <p className="text-xs text-muted-foreground">{t('range.hint')}</p>
        <Button type="submit" size="sm">
          {t('range.apply')}
        </Button>
      </form>
    </Form>
  )
}
