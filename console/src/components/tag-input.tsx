/**
 * A multi-value input shown as removable chips (model lists, groups, whitelists): type and press
 * Enter or comma to add, paste a comma/newline separated list, Backspace removes the last chip,
 * and a filtered suggestion list opens under the field. The list is not portaled, so it scrolls
 * and clicks normally inside dialogs and sheets. `allowCustom={false}` accepts suggestions only.
 */
import { useId, useMemo, useRef, useState, type ComponentProps, type KeyboardEvent } from 'react'
import { X } from 'lucide-react'
import { cn } from '@/lib/utils'

interface TagInputProps extends Omit<ComponentProps<'input'>, 'value' | 'onChange' | 'defaultValue'> {
  value: string[]
  onChange: (value: string[]) => void
  suggestions?: string[]
  /** Accept values that are not among the suggestions (default true). */
  allowCustom?: boolean
  /** Label of a suggestion (defaults to the value itself). */
  renderSuggestion?: (value: string) => string
  /** Accessible name of a chip's remove button, given its value (callers pass their translation). */
  removeLabel: (value: string) => string
}

const MAX_SHOWN = 200

export function TagInput({
  value,
  onChange,
  suggestions = [],
  allowCustom = true,
  renderSuggestion,
  removeLabel,
  placeholder,
  disabled,
  className,
  onBlur,
  ...input
}: TagInputProps) {
  const [text, setText] = useState('')
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(0)
  /** The user moved through the suggestions with the arrow keys (Enter then picks the highlighted one). */
  const [navigated, setNavigated] = useState(false)
  const inputRef = useRef<HTMLInputElement>(null)
  const listId = useId()

  const options = useMemo(() => {
    const needle = text.trim().toLowerCase()
    const chosen = new Set(value)
    return suggestions.filter((s) => !chosen.has(s) && (!needle || s.toLowerCase().includes(needle))).slice(0, MAX_SHOWN)
  }, [suggestions, value, text])

  const add = (items: string[]) => {
    const next = [...value]
    for (const raw of items) {
      const item = raw.trim()
      if (!item || next.includes(item)) continue
      if (!allowCustom && !suggestions.includes(item)) continue
      next.push(item)
    }
    if (next.length !== value.length) onChange(next)
    setText('')
    setActive(0)
    setNavigated(false)
  }

  /** Whether Enter would pick the highlighted suggestion (rather than the typed text). */
  const highlightOn = text.trim() === '' || !allowCustom || navigated

  const remove = (item: string) => onChange(value.filter((v) => v !== item))

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' || e.key === ',') {
      // Enter never submits the surrounding form from here.
      e.preventDefault()
      const typed = text.trim()
      const highlighted = open && highlightOn ? options[active] : undefined
      const exact = options.find((o) => o.toLowerCase() === typed.toLowerCase())
      const item = highlighted ?? exact ?? (allowCustom ? typed : undefined)
      if (item) add([item])
    } else if (e.key === 'Backspace' && text === '' && value.length > 0) {
      remove(value[value.length - 1]!)
    } else if (e.key === 'ArrowDown') {
      e.preventDefault()
      setOpen(true)
      setNavigated(true)
      setActive((i) => (highlightOn ? Math.min(i + 1, Math.max(options.length - 1, 0)) : 0))
    } else if (e.key === 'ArrowUp') {
      e.preventDefault()
      setNavigated(true)
      setActive((i) => Math.max(i - 1, 0))
    } else if (e.key === 'Escape' && open) {
      e.stopPropagation()
      setOpen(false)
    }
  }

  const showList = open && !disabled && options.length > 0

  return (
    <div className={cn('relative', className)}>
      <div
        className={cn(
          'flex min-h-9 w-full flex-wrap items-center gap-1.5 rounded-md border border-input bg-transparent px-2 py-1.5 shadow-xs transition-[color,box-shadow] dark:bg-input/30',
          'focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50',
          'has-[input[aria-invalid=true]]:border-destructive',
          disabled && 'pointer-events-none opacity-50'
        )}
        onMouseDown={(e) => {
          if (e.target !== inputRef.current) {
            e.preventDefault()
            inputRef.current?.focus()
            setOpen(true)
          }
        }}
      >
        {value.map((item) => (
          <span key={item} className="inline-flex max-w-full items-center gap-1 rounded bg-secondary py-0.5 pr-1 pl-2 text-xs font-medium text-secondary-foreground">
            <span className="truncate">{item}</span>
            <button
              type="button"
              className="rounded-sm p-0.5 opacity-60 hover:bg-background/60 hover:opacity-100"
              aria-label={removeLabel(item)}
              onMouseDown={(e) => e.stopPropagation()}
              onClick={() => remove(item)}
            >
              <X className="size-3" />
            </button>
          </span>
        ))}
        <input
          {...input}
          ref={inputRef}
          value={text}
          disabled={disabled}
          placeholder={value.length === 0 ? placeholder : undefined}
          role="combobox"
          aria-expanded={showList}
          aria-controls={listId}
          aria-autocomplete="list"
          autoComplete="off"
          className="h-6 min-w-[8rem] flex-1 bg-transparent text-base outline-none placeholder:text-muted-foreground md:text-sm"
          onChange={(e) => {
            const next = e.target.value
            if (/[,\n]/.test(next)) add(next.split(/[,\n]/))
            else {
              setText(next)
              setActive(0)
              setNavigated(false)
              setOpen(true)
            }
          }}
          onFocus={() => setOpen(true)}
          onBlur={(e) => {
            setOpen(false)
            // Typed text becomes a value when free entry is allowed; otherwise it is dropped.
            if (allowCustom && text.trim()) add([text])
            else if (text) setText('')
            onBlur?.(e)
          }}
          onKeyDown={onKeyDown}
          onPaste={(e) => {
            const pasted = e.clipboardData.getData('text')
            if (/[,\n]/.test(pasted)) {
              e.preventDefault()
              add(pasted.split(/[,\n]/))
            }
          }}
        />
      </div>
      {showList && (
        <ul
          id={listId}
          role="listbox"
          className="absolute inset-x-0 top-full z-50 mt-1 max-h-60 overflow-y-auto rounded-md border bg-popover p-1 text-sm text-popover-foreground shadow-md"
        >
          {options.map((option, i) => (
            <li
              key={option}
              role="option"
              aria-selected={highlightOn && i === active}
              className={cn('cursor-pointer truncate rounded-sm px-2 py-1.5 hover:bg-accent/60', highlightOn && i === active && 'bg-accent text-accent-foreground')}
              onMouseDown={(e) => {
                e.preventDefault()
                add([option])
              }}
            >
              {renderSuggestion ? renderSuggestion(option) : option}
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
