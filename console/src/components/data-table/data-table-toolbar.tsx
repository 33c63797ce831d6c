/**
 * Toolbar above a list: a debounced search box bound to a URL param, filter controls passed as
 * children, a reset button when any filter is set, and the column chooser.
 */
import { useEffect, useState, type ReactNode } from 'react'
import type { Table } from '@tanstack/react-table'
import { Search, Settings2, X } from 'lucide-react'
import { useTranslation } from 'react-i18next'
import { Button } from '@/components/ui/button'
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '@/components/ui/dropdown-menu'
import { Input } from '@/components/ui/input'

interface ToolbarProps<T> {
  table: Table<T>
  search?: { value: string | undefined; onChange: (value: string | undefined) => void; placeholder?: string }
  /** Whether some filter besides the search is set (shows the reset button). */
  filtered?: boolean
  onReset?: () => void
  children?: ReactNode
  actions?: ReactNode
}

export function DataTableToolbar<T>({ table, search, filtered, onReset, children, actions }: ToolbarProps<T>) {
  const { t } = useTranslation('table')
  const [text, setText] = useState(search?.value ?? '')
  useEffect(() => setText(search?.value ?? ''), [search?.value])
  useEffect(() => {
    if (!search || text === (search.value ?? '')) return
    const timer = setTimeout(() => search.onChange(text.trim() || undefined), 350)
    return () => clearTimeout(timer)
  }, [text, search])
  return (
    <div className="flex flex-wrap items-center justify-between gap-2 py-3">
      <div className="flex flex-1 flex-wrap items-center gap-2">
        {search && (
          <div className="relative w-full sm:w-64">
            <Search className="pointer-events-none absolute top-2.5 left-2.5 size-4 text-muted-foreground" />
            <Input
              value={text}
              onChange={(e) => setText(e.target.value)}
              placeholder={search.placeholder ?? t('search')}
              className="h-9 pl-8"
              aria-label={search.placeholder ?? t('search')}
            />
          </div>
        )}
        {children}
        {(filtered || (search?.value ?? '') !== '') && onReset && (
          <Button variant="ghost" size="sm" onClick={onReset}>
            {t('reset')}
            <X />
          </Button>
        )}
      </div>
      <div className="flex items-center gap-2">
        {actions}
        <DropdownMenu>
          <DropdownMenuTrigger asChild>
            <Button variant="outline" size="sm" className="h-9">
              <Settings2 />
              <span className="hidden sm:inline">{t('columns')}</span>
            </Button>
          </DropdownMenuTrigger>
          <DropdownMenuContent align="end" className="w-48">
            <DropdownMenuLabel>{t('toggleColumns')}</DropdownMenuLabel>
            <DropdownMenuSeparator />
            {table
              .getAllLeafColumns()
              .filter((c) => c.getCanHide())
              .map((c) => (
                <DropdownMenuCheckboxItem key={c.id} checked={c.getIsVisible()} onCheckedChange={(v) => c.toggleVisibility(Boolean(v))} onSelect={(e) => e.preventDefault()}>
                  {c.columnDef.meta?.title ?? c.id}
                </DropdownMenuCheckboxItem>
              ))}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </div>
  )
}
