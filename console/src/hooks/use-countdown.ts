/** A seconds countdown (e.g. the 60 s before a verification code may be re-sent). */
import { useEffect, useState } from 'react'

export function useCountdown() {
  const [remaining, setRemaining] = useState(0)
  useEffect(() => {
    if (remaining <= 0) return
    const timer = setTimeout(() => setRemaining((s) => s - 1), 1000)
    return () => clearTimeout(timer)
  }, [remaining])
  return { remaining, running: remaining > 0, start: (seconds: number) => setRemaining(seconds) }
}
