import { waitFor } from '@testing-library/react'
import { describe, expect, test } from 'vitest'
import { countingPublicClient, setupBalancesHarness } from '../../../test/evm/balances.js'
import { renderSwapHook } from '../../../test/react.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { type UseTokenParameters, useToken } from './useToken.js'

const h = setupBalancesHarness()

function renderToken(initial: UseTokenParameters) {
  const rpc = countingPublicClient(h.fixture)
  const rendered = renderSwapHook((parameters: UseTokenParameters) => useToken(parameters), {
    provider: { client: h.swapClient(), publicClient: rpc.publicClient },
    initialProps: initial,
  })
  return { ...rendered, rpc }
}

describe('useToken: a token pasted by its address, against the mock service and anvil', () => {
  test('nothing pasted: it waits quietly, no request to the node or the service', async () => {
    const { result, rpc } = renderToken({ address: '' })
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(result.current.fetchStatus).toBe('idle')
    expect(result.current.error).toBeNull()
    expect(rpc.requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })

  test('a listed token: its symbol and decimals read on chain in one call, the service lists it', async () => {
    const usdc = h.fixture.tokens.USDC.address
    const { result, rpc } = renderToken({ address: ` ${usdc.toLowerCase()} ` })
    await waitFor(() => expect(result.current.isSuccess).toBe(true))
    expect(result.current.data).toMatchObject({
      address: usdc,
      kind: 'token',
      symbol: 'USDC',
      decimals: 6,
      listing: 'listed',
      warning: undefined,
    })
    expect(rpc.requests.filter((method) => method === 'eth_call')).toHaveLength(1)
    expect(result.current.queryKey).toEqual([
      'token',
      { baseUrl: h.swapClient().baseUrl, chainId: h.fixture.chain.id, address: usdc.toLowerCase() },
    ])
  })

  test('pasted text that is not an address: an InvalidParameterError naming it, nothing sent', async () => {
    const { result, rpc } = renderToken({ address: 'USDC' })
    await waitFor(() => expect(result.current.isError).toBe(true))
    expect(result.current.error).toBeInstanceOf(InvalidParameterError)
    expect(result.current.error).toMatchObject({ parameter: 'address' })
    expect(rpc.requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })
})
