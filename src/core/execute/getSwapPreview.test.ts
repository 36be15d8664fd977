import {
  type Address,
  createPublicClient,
  custom,
  decodeFunctionData,
  erc20Abi,
  formatEther,
  formatUnits,
  type Hex,
  maxUint256,
  type PublicClient,
  parseEther,
  parseUnits,
} from 'viem'
import { describe, expect, test } from 'vitest'
import { jsonRpc } from '../../../test/evm/rpc.js'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import { createMockMarket } from '../../mock/createMockMarket.js'
import { mockTokenAddresses } from '../../mock/fixtures.js'
import { startMockServer } from '../../mock/startMockServer.js'
import { createSwapClient } from '../client.js'
import { UntrustedAddressError } from '../errors/execute.js'
import { executeSwap } from './executeSwap.js'
import { getSwapPreview } from './getSwapPreview.js'

const h = setupSwapHarness()
const user = () => h.fixture.accounts.user.address

const preview = (parameters: Partial<Parameters<typeof getSwapPreview>[1]> = {}) =>
  getSwapPreview(h.swapClient(), {
    publicClient: h.fixture.publicClient,
    walletClient: h.wallet().walletClient,
    account: user(),
    token0: h.address('TKA'),
    token1: h.address('TKB'),
    amountIn: parseEther('10'),
    ...parameters,
  })

describe('getSwapPreview on anvil', () => {
  test('an ERC-20 input without allowance: approve then swap, fee measured with the allowance it will have', async () => {
    const requestsBefore = h.server.service.count()
    const result = await preview()
    expect(result).toMatchObject({
      balance: parseEther('1000'),
      insufficientBalance: false,
      allowance: 0n,
      needsApproval: true,
      needsReset: false,
      steps: ['approve', 'swap'],
      decimals: { token0: 18, token1: 18 },
    })
    // One quote and three prices (token0, token1, the native coin for the fee): what the hooks share
    // with useSwapInfo and useTokenPrice.
    expect(h.server.service.count() - requestsBefore).toBe(4)
    expect(result.networkFee?.method).toBe('eth_simulateV1')

    // The estimate matches what the flow then spends.
    const swapped = await executeSwap(h.swapClient(), {
      walletClient: h.wallet().walletClient,
      publicClient: h.fixture.publicClient,
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: parseEther('10'),
      acceptedQuote: result.swapInfo,
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
      storage: false,
    })
    const approval = await h.fixture.publicClient.getTransactionReceipt({
      hash: swapped.approvalHash as `0x${string}`,
    })
    const spent = approval.gasUsed + swapped.receipt.gasUsed
    const estimated = result.networkFee?.gas ?? 0n
    expect(Number(estimated)).toBeGreaterThan(Number(spent) * 0.9)
    expect(Number(estimated)).toBeLessThan(Number(spent) * 1.1)
  })

  test('an allowance that covers the amount: swap only; a small USDT-style one: reset, approve, swap', async () => {
    await h.approve('TKA', parseEther('50'))
    expect(await preview()).toMatchObject({
      allowance: parseEther('50'),
      needsApproval: false,
      steps: ['swap'],
    })

    await h.approve('USDT', 1n)
    const usdt = await preview({
      token0: h.address('USDT'),
      token1: h.address('USDC'),
      amountIn: parseUnits('100', 6),
    })
    expect(usdt).toMatchObject({
      allowance: 1n,
      needsApproval: true,
      needsReset: true,
      steps: ['reset', 'approve', 'swap'],
    })
    expect(usdt.decimals).toEqual({ token0: 6, token1: 6 })
  })

  test('native input: the ETH balance, no approval; too much: insufficientBalance and no fee', async () => {
    const small = await preview({
      token0: h.address('ETH'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
    })
    expect(small).toMatchObject({
      allowance: undefined,
      needsApproval: false,
      steps: ['swap'],
      insufficientBalance: false,
    })
    expect(small.balance).toBe(await h.balance('ETH'))
    expect(small.networkFee?.wei).toBeGreaterThan(0n)
    const huge = await preview({
      token0: h.address('ETH'),
      token1: h.address('USDC'),
      amountIn: parseEther('1000000'),
    })
    expect(huge).toMatchObject({ insufficientBalance: true, networkFee: undefined })
  })

  test('a wallet that batches: one step, "batch"', async () => {
    const result = await preview({ walletClient: h.wallet({ eip5792: {} }).walletClient })
    expect(result.steps).toEqual(['batch'])
    expect(
      (await preview({ walletClient: h.wallet({ eip5792: {} }).walletClient, batch: 'never' })).steps,
    ).toEqual(['approve', 'swap'])
  })

  test('the steps are what executeSwap sends, with the same approval options (resetAllowance, infinite)', async () => {
    // A plain token with a small allowance: no reset is needed, unless resetAllowance asks for one.
    await h.approve('TKA', 1n)
    const options = { resetAllowance: true, approval: 'infinite' } as const
    const shown = await preview(options)
    expect(shown).toMatchObject({
      needsApproval: true,
      needsReset: true,
      steps: ['reset', 'approve', 'swap'],
    })
    const wallet = h.wallet()
    await executeSwap(h.swapClient(), {
      walletClient: wallet.walletClient,
      publicClient: h.fixture.publicClient,
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: parseEther('10'),
      acceptedQuote: shown.swapInfo,
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
      storage: false,
      ...options,
    })
    const sent = wallet.sendRequests().map(({ params }) => (params as [{ to: Address; data: Hex }])[0])
    const approvals = sent
      .slice(0, 2)
      .map(({ data }) => decodeFunctionData({ abi: erc20Abi, data }).args?.[1])
    expect(approvals).toEqual([0n, maxUint256])
    expect(sent).toHaveLength(shown.steps.length)
  })

  test('the wallet is asked whether it batches only when there is an approval to batch', async () => {
    await h.approve('TKA', parseEther('10'))
    const wallet = h.wallet({ eip5792: {} })
    const result = await preview({ walletClient: wallet.walletClient })
    expect(result.steps).toEqual(['swap'])
    expect(wallet.requests.map(({ method }) => method)).not.toContain('wallet_getCapabilities')
  })

  test('the preview applies the click’s allowlist: a router or spender outside trustedAddresses fails it with UntrustedAddressError before any chain read', async () => {
    const chainId = h.fixture.chain.id
    const reads: string[] = []
    const publicClient = createPublicClient({
      chain: h.fixture.chain,
      transport: custom({
        async request({ method, params }: { method: string; params?: unknown }) {
          reads.push(method)
          return h.fixture.publicClient.request({ method, params } as never)
        },
      }),
    })
    // The router alone: the service's spender is outside the list.
    const refused = await preview({
      publicClient,
      trustedAddresses: { [chainId]: [h.fixture.router] },
    }).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(UntrustedAddressError)
    expect(refused).toMatchObject({ code: 'UNTRUSTED_ADDRESS', address: h.fixture.spender, chainId })
    // No list for this chain at all.
    await expect(
      preview({ publicClient, trustedAddresses: { 1: [h.fixture.router] } }),
    ).rejects.toMatchObject({
      code: 'UNTRUSTED_ADDRESS',
      shortMessage: expect.stringContaining('no trustedAddresses for this chain'),
    })
    expect(reads).toEqual([])
    // Both trusted (any letter case): the preview as before, with its fee.
    const trusted = await preview({
      trustedAddresses: { [chainId]: [h.fixture.router.toLowerCase() as Address, h.fixture.spender] },
    })
    expect(trusted.networkFee?.wei).toBeGreaterThan(0n)
    // As executeSwap's waiver.
    const waived = await preview({ trustedAddresses: { 1: [] }, dangerouslyTrustAnyAddress: true })
    expect(waived.steps.length).toBeGreaterThan(0)
  })

  test('price impact against the service prices, with warning levels', async () => {
    const { tokens, pools, router, spender } = h.fixture.market
    // A market whose USD prices make the quote look fair, then one where they make it look bad.
    const priced = (price: number) =>
      createMockMarket({
        tokens: tokens.map((token) => ({ ...token, priceUsd: token.symbol === 'TKB' ? price : 1 })),
        pairs: pools,
        router,
        spender,
      })
    // TKA at $1: the price of TKB at which 10 TKA in is worth exactly what comes out.
    const out = h.market.quote({
      token0: h.address('TKA'),
      token1: h.address('TKB'),
      amountIn: parseEther('10'),
    })
    const fair = 10 / Number(formatUnits(out?.amountOut ?? 1n, 18))
    for (const [priceOfTkb, warning] of [
      [fair, 'none'],
      [fair * 0.9, 'high'], // 10% less value out
      [fair * 0.7, 'blocking'], // 30% less
    ] as const) {
      const server = await startMockServer({ market: priced(priceOfTkb) })
      try {
        const result = await getSwapPreview(createSwapClient({ baseUrl: server.url, rateLimit: false }), {
          publicClient: h.fixture.publicClient,
          account: user(),
          token0: h.address('TKA'),
          token1: h.address('TKB'),
          amountIn: parseEther('10'),
        })
        expect(result.priceImpact?.warning).toBe(warning)
        expect(result.priceImpact?.valueIn).toBeCloseTo(10)
      } finally {
        await server.stop()
      }
    }
    // Known prices skip the requests; the thresholds are the caller's.
    const known = await preview({
      prices: { token0: 1, token1: fair * 0.98 },
      priceImpactThresholds: { high: 0.01, blocking: 0.5 },
    })
    expect(known.priceImpact?.warning).toBe('high')
    expect(known.priceImpact?.value).toBeCloseTo(0.02)
  })

  test('tokens with no contract on this chain (another chain’s addresses) name the token, not the wallet', async () => {
    // The default mock market quotes mainnet's USDC and WETH; this anvil has no code there.
    const server = await startMockServer({ market: createMockMarket() })
    const client = createSwapClient({ baseUrl: server.url, rateLimit: false })
    const wallet = h.wallet()
    const swap = {
      token0: mockTokenAddresses.USDC,
      token1: mockTokenAddresses.WETH,
      amountIn: parseUnits('100', 6),
    }
    try {
      const previewError = await getSwapPreview(client, {
        publicClient: h.fixture.publicClient,
        account: user(),
        ...swap,
      }).catch((error: unknown) => error)
      // Its facts as typed fields, for an app's own message (not only in the English text).
      expect(previewError).toMatchObject({
        name: 'InvalidParameterError',
        code: 'INVALID_PARAMETER',
        parameter: 'token0',
        value: mockTokenAddresses.USDC,
        chainId: h.fixture.chain.id,
      })
      expect((previewError as Error).message).toMatch(`has no contract on chain ${h.fixture.chain.id}`)

      const executeError = await executeSwap(client, {
        walletClient: wallet.walletClient,
        publicClient: h.fixture.publicClient,
        ...swap,
        minAmountOut: 1n,
        dangerouslyTrustAnyAddress: true,
      }).catch((error: unknown) => error)
      expect(executeError).toMatchObject({
        name: 'InvalidParameterError',
        parameter: 'token0',
        value: mockTokenAddresses.USDC,
        chainId: h.fixture.chain.id,
      })
      expect(wallet.sendRequests()).toHaveLength(0)
    } finally {
      await server.stop()
    }
  })

  test('a node without eth_simulateV1: the fee comes from eth_estimateGas of the probe', async () => {
    const forward = jsonRpc(h.fixture.rpcUrl)
    const publicClient = createPublicClient({
      chain: h.fixture.chain,
      transport: custom({
        request: ({ method, params }) => {
          if (method === 'eth_simulateV1')
            throw Object.assign(new Error('method not found'), { code: -32601 })
          return forward(method, params)
        },
      }),
    }) as PublicClient
    const result = await preview({ publicClient })
    expect(result.networkFee?.method).toBe('eth_estimateGas')
    expect(result.networkFee?.gas).toBeGreaterThan(100_000n)
  })

  test('the fee in ETH is what the mined transactions paid (gasUsed × effectiveGasPrice, within 10 %): approval and swap, a native input, a batch', async () => {
    const paid = (receipts: { gasUsed: bigint; effectiveGasPrice: bigint }[]) =>
      receipts.reduce((total, receipt) => total + receipt.gasUsed * receipt.effectiveGasPrice, 0n)
    for (const [swap, expectedSteps, wallet] of [
      [{}, ['approve', 'swap'], h.wallet()],
      [
        { token0: h.address('ETH'), token1: h.address('USDC'), amountIn: parseEther('1') },
        ['swap'],
        h.wallet(),
      ],
      [
        { token0: h.address('TKB'), token1: h.address('USDC'), amountIn: parseEther('5') },
        ['approve', 'swap'],
        h.wallet({ eip5792: {} }),
      ],
    ] as const) {
      const shown = await preview({ ...swap, walletClient: wallet.walletClient })
      const fee = shown.networkFee
      // Each step's gas (a batch's calls one by one) at the fee per gas; they add up to the total.
      expect(fee?.steps?.map(({ kind }) => kind)).toEqual(expectedSteps)
      expect(fee?.steps?.reduce((total, step) => total + step.gas, 0n)).toBe(fee?.gas)
      for (const step of fee?.steps ?? []) expect(step.wei).toBe(step.gas * (fee?.gasPrice ?? 0n))
      expect(fee?.wei).toBe((fee?.gas ?? 0n) * (fee?.gasPrice ?? 0n))
      // The fee per gas is the next block's base fee plus the priority fee, not a max fee.
      const [history, tip] = await Promise.all([
        h.fixture.publicClient.getFeeHistory({ blockCount: 1, rewardPercentiles: [] }),
        h.fixture.publicClient.estimateMaxPriorityFeePerGas(),
      ])
      expect(fee?.gasPrice).toBe((history.baseFeePerGas[1] as bigint) + tip)

      const swapped = await executeSwap(h.swapClient(), {
        walletClient: wallet.walletClient,
        publicClient: h.fixture.publicClient,
        token0: swap.token0 ?? h.address('TKA'),
        token1: swap.token1 ?? h.address('TKB'),
        amountIn: swap.amountIn ?? parseEther('10'),
        acceptedQuote: shown.swapInfo,
        trustedAddresses: { [h.fixture.chain.id]: [h.fixture.router, h.fixture.spender] },
        storage: false,
      })
      // Every transaction the flow sent (the approval and the swap, the swap alone, the batch's), as the node mined it.
      const receipts = await Promise.all(
        swapped.transactionHashes.map((hash) => h.fixture.publicClient.getTransactionReceipt({ hash })),
      )
      expect(receipts).toHaveLength(expectedSteps.length)
      const spent = paid(receipts)
      expect(Number(fee?.wei)).toBeGreaterThan(Number(spent) * 0.9)
      expect(Number(fee?.wei)).toBeLessThan(Number(spent) * 1.1)
      // Each step's gas against its own receipt.
      receipts.forEach((receipt, i) => {
        expect(Number(fee?.steps?.[i]?.gas)).toBeGreaterThan(Number(receipt.gasUsed) * 0.9)
        expect(Number(fee?.steps?.[i]?.gas)).toBeLessThan(Number(receipt.gasUsed) * 1.1)
      })
    }
  })

  test('the fee in USD at the service’s native price, its share of the input and the flag; unknown without a price', async () => {
    const { tokens, pools, router, spender } = h.fixture.market
    const usdPrices: Record<string, number> = { ETH: 3000, TKA: 2, TKB: 1 }
    const served = async (
      prices: Record<string, number>,
      run: (client: ReturnType<typeof h.swapClient>, count: () => number) => Promise<void>,
    ) => {
      const server = await startMockServer({
        market: createMockMarket({
          tokens: tokens.map((token) => ({ ...token, priceUsd: prices[token.symbol] ?? 0 })),
          pairs: pools,
          router,
          spender,
        }),
      })
      try {
        await run(createSwapClient({ baseUrl: server.url, rateLimit: false }), () => server.service.count())
      } finally {
        await server.stop()
      }
    }
    await served(usdPrices, async (client) => {
      const priced = (parameters: Partial<Parameters<typeof getSwapPreview>[1]> = {}) =>
        getSwapPreview(client, {
          publicClient: h.fixture.publicClient,
          account: user(),
          token0: h.address('TKA'),
          token1: h.address('TKB'),
          amountIn: parseEther('10'),
          ...parameters,
        })
      const shown = await priced()
      const fee = shown.networkFee
      const usd = Number(formatEther(fee?.wei ?? 0n)) * 3000
      expect(fee?.usd).toBeCloseTo(usd, 10)
      // 10 TKA at $2 go in.
      expect(fee?.share).toBeCloseTo(usd / 20, 10)
      // The default threshold (10 %) and a threshold an app sets, either side of the share.
      expect(fee?.warning).toBe((fee?.share ?? 0) >= 0.1 ? 'high' : 'none')
      const share = fee?.share ?? 0
      expect((await priced({ networkFeeThreshold: share * 0.99 })).networkFee?.warning).toBe('high')
      expect((await priced({ networkFeeThreshold: share * 1.01 })).networkFee?.warning).toBe('none')
      // A native input: its own price is the fee's, and is not asked for twice.
      const native = await priced({
        token0: h.address('ETH'),
        token1: h.address('TKA'),
        amountIn: parseEther('1'),
      })
      expect(native.networkFee?.usd).toBeCloseTo(Number(formatEther(native.networkFee?.wei ?? 0n)) * 3000, 10)
      expect(native.networkFee?.share).toBeCloseTo((native.networkFee?.usd ?? 0) / 3000, 10)
      await expect(priced({ networkFeeThreshold: -1 })).rejects.toMatchObject({
        code: 'INVALID_PARAMETER',
        parameter: 'networkFeeThreshold',
      })
    })
    // No native price: the fee in USD and its share are unknown; the chain's wrapped token's price stands in, if known.
    await served({ TKA: 2, TKB: 1 }, async (client, count) => {
      const request = {
        publicClient: h.fixture.publicClient,
        account: user(),
        token0: h.address('TKA'),
        token1: h.address('TKB'),
        amountIn: parseEther('10'),
      }
      const unknown = await getSwapPreview(client, request)
      expect(unknown.networkFee).toMatchObject({ usd: undefined, share: undefined, warning: 'unknown' })
      expect(unknown.networkFee?.wei).toBeGreaterThan(0n)
      // TKB standing for the wrapped native token ($1 here).
      const wrapped = await getSwapPreview(client, { ...request, wrappedNativeToken: h.address('TKB') })
      expect(wrapped.networkFee?.usd).toBeCloseTo(Number(formatEther(wrapped.networkFee?.wei ?? 0n)), 10)
      // Prices the caller has (the hook's cached ones), even none: nothing is fetched.
      const before = count()
      const given = await getSwapPreview(client, {
        ...request,
        swapInfo: unknown.swapInfo,
        prices: { token0: 2, token1: undefined, native: 3000 },
      })
      expect(count()).toBe(before)
      expect(given.networkFee?.usd).toBeCloseTo(Number(formatEther(given.networkFee?.wei ?? 0n)) * 3000, 10)
      expect(given.valueGap).toEqual({ status: 'unknown', missing: ['token1'] })
    })
  })

  test('the value gap: the price impact stated as known, or unknown with the prices missing', async () => {
    // The harness's market has no USD prices.
    const none = await preview()
    expect(none.priceImpact).toBeUndefined()
    expect(none.valueGap).toEqual({ status: 'unknown', missing: ['token0', 'token1'] })
    const onlyOut = await preview({ prices: { token0: undefined, token1: 1 } })
    expect(onlyOut.valueGap).toEqual({ status: 'unknown', missing: ['token0'] })
    // Known: the very price impact, with its warning (one rule, one set of thresholds).
    const known = await preview({
      prices: { token0: 1, token1: 1 },
      priceImpactThresholds: { high: 0.01, blocking: 0.5 },
    })
    expect(known.valueGap).toEqual({ status: 'known', ...known.priceImpact })
    expect(known.priceImpact).toMatchObject({ valueIn: 10 })
    expect(known.valueGap.status === 'known' && known.valueGap.value).toBe(known.priceImpact?.value)
  })
})
