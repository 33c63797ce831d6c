/**
 * One generic dialog controller for list pages: which dialog is open and for what. Row actions and
 * header buttons call `open(dialog)`; the page's dialogs file mounts the dialogs and calls `close()`.
 * The last dialog stays mounted while it animates out; `seq` changes on every open so a dialog keyed
 * on it starts with a fresh form.
 */
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react'

export interface DialogController<D> {
  dialog: D | null
  isOpen: boolean
  /** Changes on every `open`, to key the dialog. */
  seq: number
  open: (dialog: D) => void
  close: () => void
}

/** A provider and its hook for one page's dialog union `D`; `name` appears in the misuse error. */
export function createDialogController<D>(name: string) {
  const Context = createContext<DialogController<D> | null>(null)

  function Provider({ children }: { children: ReactNode }) {
    const [state, setState] = useState<{ dialog: D | null; isOpen: boolean; seq: number }>({ dialog: null, isOpen: false, seq: 0 })
    // Stable callbacks: column definitions memoised on `open` do not rebuild on every dialog change.
    const open = useCallback((dialog: D) => setState((s) => ({ dialog, isOpen: true, seq: s.seq + 1 })), [])
    const close = useCallback(() => setState((s) => ({ ...s, isOpen: false })), [])
    const value = useMemo(() => ({ ...state, open, close }), [state, open, close])
    return <Context.Provider value={value}>{children}</Context.Provider>
  }

  function useDialog(): DialogController<D> {
    const ctx = useContext(Context)
    if (!ctx) throw new Error(`${name} dialogs used outside their provider`)
    return ctx
  }

  return { Provider, useDialog }
}
