import { act, waitFor } from '@testing-library/react'
import { parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { testErc20Abi } from '../../../test/evm/abis.js'
import { countingPublicClient, installMulticall3, setupBalancesHarness } from '../../../test/evm/balances.js'
import { renderSwapHook } from '../../../test/react.js'
import type { GetTokenBalancesReturnType } from '../../core/balances/getTokenBalances.js'
import { BlockNotReachedError } from '../../core/errors/balances.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { tokenBalancesQueryName } from '../../query/getTokenBalances.js'
import { getTokenPriceQueryKey } from '../../query/getTokenPrice.js'
import { type UseTokenBalancesParameters, useTokenBalances } from './useTokenBalances.js'

const h = setupBalancesHarness()

const symbols = (data: GetTokenBalancesReturnType | undefined) =>
  data?.balances.map((entry) => entry.token.symbol)
const balanceOf = (data: GetTokenBalancesReturnType | undefined, symbol: string) =>
  data?.balances.find((entry) => entry.token.symbol === symbol)?.balance

/** The user sends `amount` TKA away, as a swap would spend it; resolves with the receipt. */
async function spendTka(amount: bigint) {
  const { fixture } = h
  return fixture.publicClient.waitForTransactionReceipt({
    hash: await fixture.userClient.writeContract({
      address: fixture.tokens.TKA.address,
      abi: testErc20Abi,
      functionName: 'transfer',
      args: [fixture.accounts.recipient.address, amount],
    }),
  })
}

function renderBalances(initial: UseTokenBalancesParameters) {
  const rpc = countingPublicClient(h.fixture)
  const rendered = renderSwapHook((parameters: UseTokenBalancesParameters) => useTokenBalances(parameters), {
    provider: { client: h.swapClient(), publicClient: rpc.publicClient },
    initialProps: initial,
  })
  return { ...rendered, rpc }
}

describe('useTokenBalances against the mock service and anvil', () => {
  test('without an account it waits quietly: no request to the node or the service', async () => {
    const { result, rpc } = renderBalances({})
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(result.current.status).toBe('pending')
    expect(result.current.fetchStatus).toBe('idle')
    expect(result.current.error).toBeNull()
    expect(rpc.requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })

  test("the service's list, read through the provider's public client, sorted, with prices shared with useTokenPrice", async () => {
    await installMulticall3(h.fixture)
    const { result, rpc, queryClient } = renderBalances({ account: h.user() })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(symbols(result.current.data)).toEqual(['ETH', 'USDC', 'USDT', 'TKA', 'TKB', 'BAD'])
    expect(result.current.data?.method).toBe('stateOverride') // the reader, in one eth_call
    expect(result.current.queryKey[0]).toBe(tokenBalancesQueryName)
    expect(rpc.requests).toEqual(['eth_blockNumber', 'eth_call'])
    // The prices went through the tokenPrice cache: a useTokenPrice of the same token sends nothing.
    const usdc = h.fixture.tokens.USDC.address
    expect(queryClient.getQueryData(getTokenPriceQueryKey({ baseUrl: h.server.url, address: usdc }))).toBe(1)
    expect(h.server.service.count('/overview/token/price')).toBe(6)
  })

  test('after a swap: invalidating [tokenBalancesQueryName] re-reads the list; the prices come from the cache', async () => {
    await installMulticall3(h.fixture)
    const { result, queryClient } = renderBalances({ account: h.user() })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(balanceOf(result.current.data, 'TKA')).toBe(parseEther('1000'))
    h.server.service.clearLog()

    await spendTka(parseEther('250'))
    await act(() => queryClient.invalidateQueries({ queryKey: [tokenBalancesQueryName] }))
    await waitFor(() => expect(balanceOf(result.current.data, 'TKA')).toBe(parseEther('750')))
    // The list is read again (it is part of this query); the prices are still fresh in the tokenPrice cache.
    expect(h.server.service.count('/overview/tokens')).toBe(1)
    expect(h.server.service.count('/overview/token/price')).toBe(0)
  })

  test("after a swap: the receipt's blockNumber reads at that block or later, the previous list shown meanwhile", async () => {
    await installMulticall3(h.fixture)
    const { result, rerender } = renderBalances({ account: h.user() })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const before = result.current.data

    const receipt = await spendTka(parseEther('100'))
    rerender({ account: h.user(), blockNumber: receipt.blockNumber })
    // At once: the previous list stands in (no empty picker while the new one loads).
    expect(result.current.data).toBe(before)
    expect(result.current.isPlaceholderData).toBe(true)
    await waitFor(() => expect(result.current.isPlaceholderData).toBe(false))
    expect(result.current.data?.blockNumber).toBeGreaterThanOrEqual(receipt.blockNumber)
    expect(balanceOf(result.current.data, 'TKA')).toBe(parseEther('900'))
    expect(result.current.queryKey[1]).toMatchObject({ blockNumber: String(receipt.blockNumber) })
  })

  test('a node behind blockNumber: BlockNotReachedError, asked again until the block is there', async () => {
    const latest = await h.fixture.publicClient.getBlockNumber()
    const { result } = renderBalances({
      account: h.user(),
      tokens: [h.fixture.tokens.TKA.address],
      prices: false,
      blockNumber: latest + 1n,
    })
    await waitFor(() => expect(result.current.failureReason).toBeInstanceOf(BlockNotReachedError))
    expect(result.current.isError).toBe(false) // still trying
    await h.fixture.testClient.mine({ blocks: 1 })
    await waitFor(() => expect(result.current.isSuccess).toBe(true), { timeout: 6000 })
    expect(result.current.data?.blockNumber).toBe(latest + 1n)
  })

  test("a publicClient parameter wins over the provider's", async () => {
    const own = countingPublicClient(h.fixture)
    const { result, rpc } = renderBalances({
      account: h.user(),
      publicClient: own.publicClient,
      tokens: [h.fixture.tokens.TKA.address],
      prices: false,
    })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data?.method).toBe('stateOverride')
    expect(own.requests).toEqual(['eth_blockNumber', 'eth_call'])
    expect(rpc.requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })

  test('a malformed account is an InvalidParameterError naming it, never retried; nothing is sent', async () => {
    const { result, rpc } = renderBalances({ account: '0x1234' })
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(result.current.error).toBeInstanceOf(InvalidParameterError)
    expect((result.current.error as InvalidParameterError).parameter).toBe('account')
    expect(result.current.failureCount).toBe(1)
    expect(rpc.requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })
})
