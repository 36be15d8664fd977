import { QueryClient } from '@tanstack/react-query'
import type { Address } from 'viem'
import { expect, test } from 'vitest'
import { refreshAfterSwap } from './refreshAfterSwap.js'

const A = '0x00000000000000000000000000000000000000A1' as Address
const B = '0x00000000000000000000000000000000000000B2' as Address
const C = '0x00000000000000000000000000000000000000C3' as Address
const ALICE = '0x000000000000000000000000000000000000a11C' as Address
const BOB = '0x0000000000000000000000000000000000000B0b' as Address

// key → what a swap of A → B by Alice on chain 1 does to it
const table: [readonly unknown[], 'dropped' | 'refetched' | 'kept'][] = [
  [['swapPreview', { chainId: 1, account: ALICE, token0: A, token1: C }], 'dropped'],
  [['swapPreview', { chainId: 1, account: BOB, token0: A, token1: B }], 'kept'],
  [['swapPreview', { chainId: 2, account: ALICE, token0: A, token1: B }], 'kept'],
  [['swapRoute', { token0: A.toLowerCase(), token1: B }], 'dropped'],
  [['swapInfo', { token0: C, token1: B }], 'dropped'],
  [['swapRoute', { token0: C, token1: C }], 'kept'],
  [['legacyPath', { token0: B, token1: C }], 'dropped'],
  [['tokenBalances', { chainId: 1, account: ALICE }], 'refetched'],
  [['balance', { chainId: 1, address: ALICE }], 'refetched'],
  [['readContract', { chainId: 1, functionName: 'balanceOf' }], 'refetched'],
  [['readContracts', { contracts: [] }], 'refetched'],
  [['readContract', { chainId: 2, functionName: 'balanceOf' }], 'kept'],
  [['tokens', {}], 'kept'],
  [['tokenPrice', { address: A }], 'kept'],
]

test.each(table)('%j is %s', async (queryKey, expected) => {
  const queryClient = new QueryClient()
  queryClient.setQueryData(queryKey, 'before')
  await refreshAfterSwap(queryClient, { token0: A, token1: B, account: ALICE, chainId: 1 })
  const state = queryClient.getQueryState(queryKey)
  const outcome = state?.data === undefined ? 'dropped' : state.isInvalidated ? 'refetched' : 'kept'
  expect(outcome).toBe(expected)
})

test('waits until the node has the receipt’s block, then reads; a node that never gets there is read after timeoutMs', async () => {
  const queryClient = new QueryClient()
  queryClient.setQueryData(['balance', { chainId: 1 }], 1n)
  let block = 9n
  const asked: bigint[] = []
  const lagging = {
    async getBlockNumber() {
      asked.push(block)
      return block++
    },
  }
  await refreshAfterSwap(queryClient, {
    token0: A,
    token1: B,
    chainId: 1,
    blockNumber: 11n,
    publicClient: lagging,
  })
  expect(asked).toEqual([9n, 10n, 11n])
  expect(queryClient.getQueryState(['balance', { chainId: 1 }])?.isInvalidated).toBe(true)

  const stuck = { getBlockNumber: async () => 1n }
  const started = Date.now()
  await refreshAfterSwap(queryClient, {
    token0: A,
    token1: B,
    blockNumber: 5n,
    publicClient: stuck,
    timeoutMs: 300,
  })
  expect(Date.now() - started).toBeGreaterThanOrEqual(250)
})
