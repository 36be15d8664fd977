/**
 * getSwapPreview and executeSwap share one planner: over allowance × reset ×
 * batch mode × wallet capability × enforcement, the steps, the calls and the
 * fee the preview announces are what executeSwap then sends and spends (on
 * anvil, the preview taken right before the swap, on the same state).
 */
import { type Address, type Hex, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import { executeSwap } from './executeSwap.js'
import { getSwapPreview } from './getSwapPreview.js'
import { swapGuardAddress } from './guard/swapGuard.js'
import type { FloorEnforcement } from './rules/planSwap.js'

const h = setupSwapHarness()

type Token = 'TKA' | 'USDT'
type Allowance = 'none' | 'small' | 'enough'
const cases: [Token, Allowance, 'auto' | 'never', boolean, FloorEnforcement][] = []
for (const token of ['TKA', 'USDT'] as const)
  for (const allowance of ['none', 'small', 'enough'] as const)
    for (const batch of ['auto', 'never'] as const)
      for (const batching of [true, false])
        for (const enforcement of ['onchain', 'simulation'] as const)
          cases.push([token, allowance, batch, batching, enforcement])

describe('the preview announces what executeSwap sends', () => {
  test.each(cases)(
    '%s, allowance %s, batch %s, batching wallet %s, %s',
    async (token, allowance, batch, batching, enforcement) => {
      const token0 = h.address(token)
      const token1 = h.address(token === 'TKA' ? 'TKB' : 'USDC')
      const amountIn = token === 'TKA' ? parseEther('10') : parseUnits('100', 6)
      const target = enforcement === 'onchain' ? swapGuardAddress : h.fixture.spender
      if (allowance !== 'none') await h.approve(token, allowance === 'small' ? 1n : amountIn, target)
      const quote = h.market.quote({ token0, token1, amountIn })
      const minAmountOut = ((quote?.amountOut ?? 0n) * 99n) / 100n
      const wallet = h.wallet(batching ? { eip5792: {} } : {})
      // One deadline for both quotes: the service writes it into the calldata.
      const { timestamp } = await h.fixture.publicClient.getBlock()
      const deadline = timestamp + 600n
      const swap = { token0, token1, amountIn, deadline, batch, floorEnforcement: enforcement } as const

      const preview = await getSwapPreview(h.swapClient(), {
        publicClient: h.fixture.publicClient,
        walletClient: wallet.walletClient,
        account: h.fixture.accounts.user.address,
        minAmountOut,
        ...swap,
      })
      const result = await executeSwap(h.swapClient(), {
        walletClient: wallet.walletClient,
        publicClient: h.fixture.publicClient,
        minAmountOut,
        trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
        storage: false,
        ...swap,
      })

      // What the wallet was asked for: each transaction, or the batch and its calls.
      const sent = wallet.requests.flatMap(({ method, params }) => {
        if (method === 'eth_sendTransaction') {
          const [{ to, data }] = params as [{ to: Address; data: Hex }]
          return [{ to: to.toLowerCase(), data }]
        }
        if (method === 'wallet_sendCalls') {
          const [{ calls }] = params as [{ calls: { to: Address; data: Hex }[] }]
          return calls.map(({ to, data }) => ({ to: to.toLowerCase(), data }))
        }
        return []
      })
      const batches = wallet.requests.filter(({ method }) => method === 'wallet_sendCalls').length
      expect(preview.calls.map(({ to, data }) => ({ to: to.toLowerCase(), data }))).toEqual(sent)
      expect(preview.steps.includes('batch')).toBe(batches === 1)
      expect(preview.steps.length).toBe(batches === 1 ? 1 : sent.length)
      expect(preview.approvalTarget).toBe(target)

      // The fee: the gas the simulation of those calls measured is the gas their receipts show.
      const spent = result.receipts.reduce((total, receipt) => total + receipt.gasUsed, 0n)
      expect(preview.networkFee?.gas).toBe(spent)
    },
  )
})
