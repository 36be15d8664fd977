import { type Address, decodeFunctionData, erc20Abi, getAddress, maxUint256 } from 'viem'
import { describe, expect, test } from 'vitest'
import { nativeTokenAddress } from '../../constants.js'
import { BatchUnsupportedError } from '../../errors/execute.js'
import { swapGuardAbi, swapGuardAddress } from '../guard/swapGuard.js'
import { planSwap, type SwapFacts } from './planSwap.js'

const TKA: Address = getAddress('0x00000000000000000000000000000000000000a1')
const TKB: Address = getAddress('0x00000000000000000000000000000000000000b2')
const router: Address = getAddress('0x00000000000000000000000000000000000000c3')
const spender: Address = getAddress('0x00000000000000000000000000000000000000d4')
const user: Address = getAddress('0x00000000000000000000000000000000000000e5')

const base: SwapFacts = {
  enforcement: 'onchain',
  token0: TKA,
  token1: TKB,
  amountIn: 100n,
  minAmountOut: 90n,
  recipient: user,
  swapInfo: { approvalAddress: spender, transferAddress: router, data: '0x1234', transferValue: 0n },
  allowance: 0n,
  refusesChange: false,
  batchMode: 'auto',
  atomicBatch: false,
}

/** The approvals of a plan as [target, amount] pairs. */
const approvals = (facts: Partial<SwapFacts>) =>
  planSwap({ ...base, ...facts }, 1).approvals.map(
    ({ data }) => decodeFunctionData({ abi: erc20Abi, data }).args as readonly [Address, bigint],
  )
const kinds = (facts: Partial<SwapFacts>) => planSwap({ ...base, ...facts }, 1).steps.map((step) => step.kind)

describe('planSwap: the steps, from the facts alone', () => {
  // One row per rule: the facts, and the steps that must come out.
  test.each([
    ['no allowance: approve, then swap', {}, ['approve', 'swap']],
    ['an allowance that covers amountIn: swap alone', { allowance: 100n }, ['swap']],
    ['a larger allowance: swap alone', { allowance: 10n ** 30n }, ['swap']],
    ['a small allowance the token changes: approve, swap', { allowance: 1n }, ['approve', 'swap']],
    [
      'a small allowance the token refuses to change: reset, approve, swap',
      { allowance: 1n, refusesChange: true },
      ['reset', 'approve', 'swap'],
    ],
    [
      'refusesChange with no allowance: no reset',
      { allowance: 0n, refusesChange: true },
      ['approve', 'swap'],
    ],
    ['native input: no approval', { token0: nativeTokenAddress, allowance: undefined }, ['swap']],
    ['a wallet that batches: one batch', { atomicBatch: true }, ['batch']],
    [
      'a wallet that batches, nothing to approve: the swap alone',
      { atomicBatch: true, allowance: 100n },
      ['swap'],
    ],
    [
      "batch: 'never' with a batching wallet: two transactions",
      { atomicBatch: true, batchMode: 'never' },
      ['approve', 'swap'],
    ],
    ['a pinned nonce (a resume) never batches', { atomicBatch: true, pinnedNonce: 7 }, ['approve', 'swap']],
    [
      "batch: 'require' with nothing to approve: the swap alone",
      { batchMode: 'require', allowance: 100n },
      ['swap'],
    ],
  ] as const)('%s', (_, facts, steps) => {
    expect(kinds(facts as Partial<SwapFacts>)).toEqual(steps)
  })

  test("batch: 'require' without a batching wallet is refused before anything is planned", () => {
    expect(() => planSwap({ ...base, batchMode: 'require' }, 1)).toThrow(BatchUnsupportedError)
  })

  test.each([
    ['exact by default', {}, [[swapGuardAddress, 100n]]],
    ['infinite only when asked', { approval: 'infinite' }, [[swapGuardAddress, maxUint256]]],
    [
      'a reset to 0 first',
      { allowance: 1n, refusesChange: true },
      [
        [swapGuardAddress, 0n],
        [swapGuardAddress, 100n],
      ],
    ],
    [
      "the service's spender when the floor is enforced in simulation only",
      { enforcement: 'simulation' },
      [[spender, 100n]],
    ],
  ] as const)('approvals: %s', (_, facts, expected) => {
    expect(approvals(facts as Partial<SwapFacts>)).toEqual(expected)
  })

  test('on chain: the swap is the guard’s, with the user’s floor, the service’s router, spender and calldata', () => {
    const { swap, approvalTarget } = planSwap(base, 1)
    expect(swap.to).toBe(swapGuardAddress)
    expect(approvalTarget).toBe(swapGuardAddress)
    expect(decodeFunctionData({ abi: swapGuardAbi, data: swap.data }).args).toEqual([
      TKA,
      100n,
      TKB,
      90n,
      user,
      spender,
      router,
      '0x1234',
    ])
  })

  test('in simulation only: the service’s call as it is', () => {
    const { swap, approvalTarget } = planSwap({ ...base, enforcement: 'simulation' }, 1)
    expect(swap).toEqual({ to: router, data: '0x1234', value: 0n })
    expect(approvalTarget).toBe(spender)
  })

  test('a pinned nonce goes to the first transaction sent', () => {
    const { steps } = planSwap({ ...base, pinnedNonce: 7 }, 1)
    expect(steps.map((step) => ('nonce' in step ? step.nonce : undefined))).toEqual([7, undefined])
    const alone = planSwap({ ...base, allowance: 100n, pinnedNonce: 7 }, 1).steps
    expect(alone.map((step) => ('nonce' in step ? step.nonce : undefined))).toEqual([7])
  })
})
