/** A sortable column header: click cycles ascending → descending → unsorted (server-side sort). */
import type { Column } from '@tanstack/react-table'
import { ArrowDown, ArrowUp, ChevronsUpDown } from 'lucide-react'
import { Button } from '@/components/ui/button'
import { cn } from '@/lib/utils'

export function DataTableColumnHeader<T>({ column, title, className }: { column: Column<T, unknown>; title: string; className?: string }) {
  if (!column.getCanSort()) return <span className={className}>{title}</span>
  const sorted = column.getIsSorted()
  return (
    <Button variant="ghost" size="sm" className={cn('-ml-2 h-8 px-2', className)} onClick={column.getToggleSortingHandler()}>
      {title}
      {sorted === 'desc' ? <ArrowDown className="size-3.5" /> : sorted === 'asc' ? <ArrowUp className="size-3.5" /> : <ChevronsUpDown className="size-3.5 opacity-50" />}
    </Button>
  )
}
