// A hook test as a user writes it: useSwapRoute inside <SwapProvider>, against the loopback mock
// server from token-swap-hooks/mock (no msw needed), in jsdom.
import { render, screen } from '@testing-library/react'
import { useState } from 'react'
import { parseAmount, SwapProvider, useSwapRoute } from 'token-swap-hooks'
import { createMockMarket, type MockServer, mockTokenAddresses, startMockServer } from 'token-swap-hooks/mock'
import { afterAll, beforeAll, expect, test } from 'vitest'

const { WETH, USDC } = mockTokenAddresses
const market = createMockMarket()
let server: MockServer

beforeAll(async () => {
  server = await startMockServer({ market })
})
afterAll(async () => {
  await server.stop()
})

const seen: unknown[] = []

function Quote() {
  const [typed] = useState('1.5')
  const route = useSwapRoute({ token0: WETH, token1: USDC, amountIn: parseAmount(typed, 18) })
  if (route.data) seen.push(route.data.amountOut)
  return <p>{route.data ? `out ${route.data.amountOut}` : route.error ? route.error.message : 'loading'}</p>
}

test('useSwapRoute answers a bigint amountOut from the loopback mock server', async () => {
  const expected = market.quote({
    token0: WETH,
    token1: USDC,
    amountIn: 1_500_000_000_000_000_000n,
  })?.amountOut
  expect(typeof expected).toBe('bigint')
  render(
    <SwapProvider baseUrl={server.url} rateLimit={false}>
      <Quote />
    </SwapProvider>,
  )
  expect(await screen.findByText(`out ${expected}`, undefined, { timeout: 5000 })).toBeTruthy()
  expect(seen.at(-1)).toBe(expected)
  expect(typeof seen.at(-1)).toBe('bigint')
})
