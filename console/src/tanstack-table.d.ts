/** Typed column metadata used by the data-table kit: a cell class and the column chooser title. */
import '@tanstack/react-table'

declare module '@tanstack/react-table' {
  interface ColumnMeta<TData, TValue> {
    className?: string
    title?: string
  }
}
