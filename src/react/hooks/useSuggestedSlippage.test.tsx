import { renderHook } from '@testing-library/react'
import type { Address } from 'viem'
import { expect, test } from 'vitest'
import { type UseSuggestedSlippageParameters, useSuggestedSlippage } from './useSuggestedSlippage.js'

const token0 = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48' as Address
const token1 = '0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2' as Address
const route = (amountOut: bigint, amountIn = 1_000n) => ({
  path: [token0, token1],
  amountOut,
  quotedFor: { token0, token1, amountIn },
})

test('each refresh of the same swap is a sample; another amount starts again; a re-render adds nothing', () => {
  const first = route(1_000_000n)
  const { result, rerender } = renderHook(
    (parameters: UseSuggestedSlippageParameters) => useSuggestedSlippage(parameters),
    {
      initialProps: { quote: first, max: 0.05 } as UseSuggestedSlippageParameters,
    },
  )
  expect(result.current).toMatchObject({ slippage: 0.005, basis: 'default', samples: 1 })
  rerender({ quote: first, max: 0.05 }) // the same quote, rendered again
  expect(result.current.samples).toBe(1)
  rerender({ quote: route(990_000n), max: 0.05 }) // a refresh, 1 % lower
  expect(result.current).toMatchObject({ slippage: 0.02, basis: 'quotes', samples: 2 })
  rerender({ quote: route(990_000n, 2_000n), max: 0.05 }) // another amount: its own samples
  expect(result.current).toMatchObject({ basis: 'default', samples: 1 })
  rerender({ quote: undefined, max: 0.05 }) // no quote (the field cleared): the samples stay
  expect(result.current.samples).toBe(1)
})

test('with quotedAt, a refresh that returned the same amount (the same object, kept by TanStack) is a sample too', () => {
  const same = route(1_000_000n)
  const { result, rerender } = renderHook(
    (parameters: UseSuggestedSlippageParameters) => useSuggestedSlippage(parameters),
    {
      initialProps: { quote: same, quotedAt: 1 },
    },
  )
  rerender({ quote: same, quotedAt: 2 })
  rerender({ quote: same, quotedAt: 3 })
  expect(result.current).toMatchObject({ slippage: 0.001, basis: 'quotes', samples: 3, largestMove: 0 })
})

test('the price impact and the user’s maximum shape it', () => {
  const { result } = renderHook(() =>
    useSuggestedSlippage({
      quote: { estimateAmount: 5n, quotedFor: { token0, token1, amountIn: 1n } },
      priceImpact: 0.2,
      max: 0.03,
    }),
  )
  expect(result.current).toMatchObject({ slippage: 0.03, capped: true })
})
