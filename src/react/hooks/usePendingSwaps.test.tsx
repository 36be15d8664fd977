import { act, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { createPublicClient, createWalletClient, custom } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { mainnet } from 'viem/chains'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { baseUrl } from '../../../test/constants.js'
import { createQueryClient, renderSwapHook } from '../../../test/react.js'
import { createSwapClient } from '../../core/client.js'
import { InvalidParameterError } from '../../core/errors/parameter.js'
import { newPendingSwapId, type PendingSwap } from '../../core/execute/records/pendingSwaps.js'
import { SwapProvider } from '../context.js'
import { usePendingSwaps } from './usePendingSwaps.js'

const account = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')

/** Every JSON-RPC request the wallet and the node are asked; each fails (no chain here). */
let requests: string[] = []
const node = custom({
  async request({ method }: { method: string }) {
    requests.push(method)
    throw new Error(`no node here (${method})`)
  },
})
const walletClient = createWalletClient({ account, chain: mainnet, transport: node })
const publicClient = createPublicClient({ chain: mainnet, transport: node })

/** An interrupted execution (approval mined, swap not sent), new for each test: its own id. */
let record: PendingSwap
const recordOf = (): PendingSwap => ({
  id: newPendingSwapId(),
  version: 1,
  chainId: mainnet.id,
  account: account.address,
  baseUrl,
  token0: '0x2222222222222222222222222222222222222222',
  token1: '0x3333333333333333333333333333333333333333',
  amountIn: '1000',
  to: account.address,
  minAmountOut: '990',
  step: 'approved',
  approvalHash: `0x${'ab'.repeat(32)}`,
  createdAt: 1,
  updatedAt: 1,
})

/** The provider's props: the clients, and no storage (nothing is checked on mount, nothing read). */
const provider = () => ({
  client: createSwapClient({ baseUrl, rateLimit: false }),
  walletClient,
  publicClient,
  storage: false as const,
})

/** What a caller without the confirmation sends: nothing, or the floor alone instead of `{ minAmountOut }`. */
const unconfirmed = [undefined, 990n, null, 'yes'] as const

/** Uncaught errors reported to the window (an event handler that throws), per test. */
let uncaught: unknown[] = []
const onError = (event: ErrorEvent) => {
  uncaught.push(event.error)
  event.preventDefault()
}
beforeEach(() => {
  record = recordOf()
  requests = []
  uncaught = []
  window.addEventListener('error', onError)
})
afterEach(() => window.removeEventListener('error', onError))

/** The error a resume without a confirmation must be. */
function expectConfirmedRefused(error: unknown, value: unknown) {
  expect(error).toBeInstanceOf(InvalidParameterError)
  const refused = error as InvalidParameterError
  expect(refused.parameter).toBe('confirmed')
  expect(refused.code).toBe('INVALID_PARAMETER')
  expect(refused.rule).toContain('minAmountOut')
  expect(refused.rule).toContain('acceptedQuote')
  expect(refused.shortMessage).toBe(`Invalid parameter "confirmed": ${refused.rule}.`)
  expect(refused.metaMessages).toEqual([
    `Received: ${value === undefined ? 'undefined' : typeof value === 'bigint' ? `${value}n` : value === null ? 'null' : JSON.stringify(value)}`,
  ])
}

describe('usePendingSwaps: resume without the confirmation (a JavaScript caller, or code from before it was required)', () => {
  test.each(unconfirmed)(
    'resume(record, %s) does not throw: resumeState.error is an InvalidParameterError naming "confirmed"; nothing is sent',
    async (value) => {
      const { result } = renderSwapHook(() => usePendingSwaps(), { provider: provider() })
      expect(() =>
        act(() => {
          // As a JavaScript caller would: the type requires the confirmation.
          ;(result.current.resume as (record: PendingSwap, confirmed?: unknown) => void)(record, value)
        }),
      ).not.toThrow()
      await waitFor(() => expect(result.current.resumeState.status).toBe('error'))
      expectConfirmedRefused(result.current.resumeState.error, value)
      expect(result.current.resumeState.data).toBeUndefined()
      expect(requests).toEqual([])
      expect(uncaught).toEqual([])
    },
  )

  test('resumeAsync(record) rejects with the same error, and the next resume with a floor goes on', async () => {
    const { result } = renderSwapHook(() => usePendingSwaps(), { provider: provider() })
    const resumeAsync = result.current.resumeAsync as (
      record: PendingSwap,
      confirmed?: unknown,
    ) => Promise<unknown>
    let refused: unknown
    await act(async () => {
      refused = await resumeAsync(record).catch((error: unknown) => error)
    })
    expectConfirmedRefused(refused, undefined)
    await waitFor(() => expect(result.current.resumeState.error).toBe(refused))
    expect(requests).toEqual([])

    // With the floor the user confirms, the resume is no longer refused: it reaches the chain (here, a node that fails).
    let failed: unknown
    await act(async () => {
      failed = await result.current
        .resumeAsync(record, { minAmountOut: 990n })
        .catch((error: unknown) => error)
    })
    expect(failed).not.toBeInstanceOf(InvalidParameterError)
    expect(requests.length).toBeGreaterThan(0)
  })

  test('a click handler calling resume(record): no uncaught error, the error shown as the hook shows others', async () => {
    function Interrupted() {
      const { resume, resumeState } = usePendingSwaps()
      return (
        <>
          <button type="button" onClick={() => (resume as (record: PendingSwap) => void)(record)}>
            Finish the swap
          </button>
          {resumeState.error && <p role="alert">{resumeState.error.shortMessage}</p>}
        </>
      )
    }
    render(
      <SwapProvider {...provider()} queryClient={createQueryClient()}>
        <Interrupted />
      </SwapProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Finish the swap' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Invalid parameter "confirmed": /)
    expect(uncaught).toEqual([])
    expect(requests).toEqual([])
  })
})
