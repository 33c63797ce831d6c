/**
 * Filter inputs of the log page bound to URL params: a text box that commits after typing pauses,
 * and a local date-time box that commits Unix seconds (empty clears the filter).
 */
import { useEffect, useRef, useState, type ComponentProps } from 'react'
import { Input } from '@/components/ui/input'
import { cn } from '@/lib/utils'

type InputProps = Omit<ComponentProps<typeof Input>, 'value' | 'onChange'>

export function DebouncedInput({ value, onCommit, className, ...props }: InputProps & { value: string | undefined; onCommit: (value: string | undefined) => void }) {
  const [text, setText] = useState(value ?? '')
  const commit = useRef(onCommit)
  commit.current = onCommit
  useEffect(() => setText(value ?? ''), [value])
  useEffect(() => {
    if (text.trim() === (value ?? '')) return
    const timer = setTimeout(() => commit.current(text.trim() || undefined), 400)
    return () => clearTimeout(timer)
  }, [text, value])
  return <Input {...props} value={text} onChange={(e) => setText(e.target.value)} className={cn('h-9', className)} />
}

const pad = (n: number) => String(n).padStart(2, '0')

/** Unix seconds → the 'YYYY-MM-DDTHH:mm' a datetime-local input shows, in local time. */
export function toLocalInput(seconds: number | undefined): string {
  if (!seconds) return ''
  const d = new Date(seconds * 1000)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

export function fromLocalInput(value: string): number | undefined {
  if (!value) return undefined
  const ms = new Date(value).getTime()
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined
}

export function DateTimeInput({
  value,
  onCommit,
  endOfMinute,
  className,
  ...props
}: InputProps & { value: number | undefined; onCommit: (value: number | undefined) => void; endOfMinute?: boolean }) {
  return (
    <Input
      {...props}
      type="datetime-local"
      value={toLocalInput(value)}
      onChange={(e) => {
        const next = fromLocalInput(e.target.value)
        // An end time covers the whole chosen minute.
        onCommit(next !== undefined && endOfMinute ? next + 59 : next)
      }}
      className={cn('h-9 w-full min-w-0 sm:w-52', className)}
    />
  )
}
