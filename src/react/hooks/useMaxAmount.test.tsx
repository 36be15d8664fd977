import { waitFor } from '@testing-library/react'
import { type Address, createPublicClient, custom, parseEther } from 'viem'
import { describe, expect, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import { renderSwapHook } from '../../../test/react.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { maxAmountQueryName } from '../../query/getMaxAmount.js'
import { type UseMaxAmountParameters, useMaxAmount } from './useMaxAmount.js'

const h = setupSwapHarness()

function renderMax(initial: UseMaxAmountParameters, blockTime?: number) {
  const methods: string[] = []
  const chain = blockTime === undefined ? h.fixture.chain : { ...h.fixture.chain, blockTime }
  const publicClient = createPublicClient({
    chain,
    transport: custom({
      request({ method, params }: { method: string; params?: unknown }) {
        methods.push(method)
        return h.fixture.publicClient.request({ method, params } as never)
      },
    }),
  })
  const rendered = renderSwapHook((parameters: UseMaxAmountParameters) => useMaxAmount(parameters), {
    provider: {
      client: h.swapClient(),
      publicClient,
      walletClient: h.wallet().walletClient,
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
    },
    initialProps: initial,
  })
  return { ...rendered, methods }
}

describe('useMaxAmount against the mock service and anvil', () => {
  test('without token1 it waits quietly: no request to the node or the service', async () => {
    const before = h.server.service.count()
    const { result, methods } = renderMax({ token0: h.address('ETH') })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(result.current.status).toBe('pending')
    expect(result.current.fetchStatus).toBe('idle')
    expect(methods).toEqual([])
    expect(h.server.service.count()).toBe(before)
  })

  test('the chain’s coin: the balance less the fee, read again every block time as the fee moves', async () => {
    await h.fixture.testClient.setBalance({
      address: h.fixture.accounts.user.address,
      value: parseEther('3'),
    })
    const { result } = renderMax({ token0: h.address('ETH'), token1: h.address('USDC') }, 300)
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    const first = result.current.data
    expect(first?.balance).toBe(parseEther('3'))
    expect(first?.amount).toBe(parseEther('3') - (first?.fee ?? 0n))
    expect(result.current.queryKey[0]).toBe(maxAmountQueryName)
    // The base fee rises: the next read reserves more.
    await h.fixture.testClient.setNextBlockBaseFeePerGas({ baseFeePerGas: 50_000_000_000n })
    await h.fixture.testClient.mine({ blocks: 1 })
    await waitFor(() => expect(result.current.data?.fee).toBeGreaterThan(first?.fee ?? 0n), { timeout: 3000 })
    expect(result.current.data?.amount).toBeLessThan(first?.amount ?? 0n)
  })

  test('an ERC-20: the balance; a malformed token: an InvalidParameterError, nothing sent', async () => {
    const { result } = renderMax({ token0: h.address('TKA'), token1: h.address('TKB') })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data?.amount).toBe(await h.balance('TKA'))

    const before = h.server.service.count()
    const bad = renderMax({ token0: 'ETH' as Address, token1: h.address('USDC') })
    await waitFor(() => expect(bad.result.current.isError).toBe(true))
    expect(bad.result.current.error).toBeInstanceOf(InvalidParameterError)
    expect(bad.methods).toEqual([])
    expect(h.server.service.count()).toBe(before)
  })
})
