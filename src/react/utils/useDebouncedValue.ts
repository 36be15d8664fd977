import { useEffect, useState } from 'react'

/**
 * `value`, once it has stopped changing for `delayMs`. The first value is
 * taken at once; `delayMs` of 0 turns debouncing off.
 */
export function useDebouncedValue<value>(value: value, delayMs: number): value {
  const [debounced, setDebounced] = useState(value)
  useEffect(() => {
    if (delayMs <= 0 || Object.is(value, debounced)) return
    const timer = setTimeout(() => setDebounced(() => value), delayMs)
    return () => clearTimeout(timer)
  }, [value, delayMs, debounced])
  return delayMs <= 0 ? value : debounced
}
