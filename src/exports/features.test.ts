import { expect, test } from 'vitest'

test('the public runtime exports of token-swap-hooks/balances', async () => {
  const balances = await import('./balances.js')
  expect(Object.keys(balances).sort()).toMatchInlineSnapshot(`
    [
      "BlockNotReachedError",
      "defaultBalancesBatchSize",
      "defaultMaxPrices",
      "getTokenBalances",
      "getTokenBalancesQueryKey",
      "getTokenBalancesQueryOptions",
      "isMulticall3Deployed",
      "multicall3Address",
      "tokenBalancesQueryName",
      "useTokenBalances",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/exact-output', async () => {
  const exactOutput = await import('./exactOutput.js')
  expect(Object.keys(exactOutput).sort()).toMatchInlineSnapshot(`
    [
      "ExactOutputNotReachedError",
      "defaultExactOutputTolerance",
      "defaultMaxProbes",
      "getSwapRouteForOutput",
      "getSwapRouteForOutputQueryKey",
      "getSwapRouteForOutputQueryOptions",
      "swapRouteForOutputQueryName",
      "useSwapRouteForOutput",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/devtools', async () => {
  const devtools = await import('./devtools.js')
  expect(Object.keys(devtools).sort()).toMatchInlineSnapshot(`
    [
      "SwapDevtoolsPanel",
      "swapDevtoolsPlugin",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/slippage', async () => {
  const slippage = await import('./slippage.js')
  expect(Object.keys(slippage).sort()).toMatchInlineSnapshot(`
    [
      "defaultSlippage",
      "slippageFor",
      "suggestSlippage",
      "suggestSlippageWindow",
      "useSuggestedSlippage",
    ]
  `)
})

test('the public runtime exports of token-swap-hooks/tabs', async () => {
  const tabs = await import('./tabs.js')
  expect(Object.keys(tabs).sort()).toMatchInlineSnapshot(`
    [
      "createTabCoordinator",
      "useTabCoordinator",
    ]
  `)
})
