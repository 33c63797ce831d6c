/** `useMediaQuery('(min-width: 1024px)')`: live result of a CSS media query. */
import { useCallback, useSyncExternalStore } from 'react'

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (cb: () => void) => {
      const mql = window.matchMedia(query)
      mql.addEventListener('change', cb)
      return () => mql.removeEventListener('change', cb)
    },
    [query]
  )
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches)
}

/** Tailwind's `lg` breakpoint: the console drawer is persistent from here up. */
export const LG_QUERY = '(min-width: 1024px)'
