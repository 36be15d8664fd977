import { type Address, createPublicClient, type Hex, http, parseEther, parseUnits } from 'viem'
import { describe, expect, test } from 'vitest'
import { testErc20Abi } from '../../../test/evm/abis.js'
import {
  cloneTokens,
  countingPublicClient,
  deployCodeAt,
  deployGasBurner,
  fixturePrices,
  installMulticall3,
  labelAddress,
  misbehavingCode,
  setupBalancesHarness,
} from '../../../test/evm/balances.js'
import { BlockNotReachedError } from '../errors/balances.js'
import { InvalidParameterError } from '../errors/parameter.js'
import { type BalanceToken, getTokenBalances, type TokenBalance } from './getTokenBalances.js'
import { isMulticall3Deployed, multicall3Address } from './multicall3.js'

const h = setupBalancesHarness()

/** The fixture's tokens (ETH first), then four that misbehave and one the user does not hold. */
async function tokenList(): Promise<BalanceToken[]> {
  const { fixture } = h
  const misbehaving = [
    { symbol: 'REV', address: await deployCodeAt(fixture, 'reverts', misbehavingCode.reverts) },
    { symbol: 'ONE', address: await deployCodeAt(fixture, 'one byte', misbehavingCode.oneByte) },
    { symbol: 'TWO', address: await deployCodeAt(fixture, 'two words', misbehavingCode.twoWords) },
    { symbol: 'NOCODE', address: labelAddress('no code') },
  ]
  // A TestERC20 whose only holder is someone else.
  const [zero] = await cloneTokens(fixture, {
    template: fixture.tokens.TKA.address,
    count: 1,
    holder: labelAddress('nobody'),
  })
  return [
    ...fixture.market.tokens.map(({ address, symbol, decimals }) => ({ address, symbol, decimals })),
    ...misbehaving.map((token) => ({ ...token, decimals: 18 })),
    { address: zero as Address, symbol: 'ZERO', decimals: 18 },
  ]
}

/** symbol → balance (or the reason it could not be read). */
const bySymbol = (balances: readonly TokenBalance[]) =>
  Object.fromEntries(
    balances.map((entry) => [entry.token.symbol, entry.status === 'success' ? entry.balance : entry.reason]),
  )

describe('getTokenBalances on anvil', () => {
  test('with the reader (a state override): every balance in one eth_call, the coin included, Multicall3 or not; reverting and garbage tokens are marked, never fatal', async () => {
    const { fixture } = h
    const tokens = await tokenList()
    const expected = {
      ETH: await fixture.publicClient.getBalance({ address: h.user() }),
      TKA: parseEther('1000'),
      TKB: parseEther('1000'),
      USDC: parseUnits('10000', 6),
      USDT: parseUnits('10000', 6),
      BAD: parseEther('1000'),
      ZERO: 0n,
      REV: 'reverted',
      ONE: 'malformed',
      TWO: 'malformed',
      NOCODE: 'malformed',
    }
    for (const multicall3 of [false, true]) {
      if (multicall3) await installMulticall3(fixture)
      const { publicClient, requests } = countingPublicClient(fixture)
      const result = await getTokenBalances(h.swapClient(), {
        publicClient,
        account: h.user(),
        tokens,
        prices: false,
      })
      expect(result.method).toBe('stateOverride')
      expect(result.chainId).toBe(fixture.chain.id)
      expect(bySymbol(result.balances)).toEqual(expected)
      // The block and one eth_call: no eth_getCode, nothing read again.
      expect(requests).toEqual(['eth_blockNumber', 'eth_call'])
    }
    expect(h.server.service.count()).toBe(0)
  })

  test('with Multicall3, on a node that refuses state overrides: every balance in one aggregate3, the coin included; reverting and garbage tokens are marked, never fatal', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    const tokens = await tokenList()
    const { publicClient, requests } = countingPublicClient(fixture, { stateOverrides: 'refuse' })
    const result = await getTokenBalances(h.swapClient(), {
      publicClient,
      account: h.user(),
      tokens,
      prices: false,
    })
    expect(result.method).toBe('multicall3')
    expect(result.chainId).toBe(fixture.chain.id)
    expect(bySymbol(result.balances)).toEqual({
      ETH: await fixture.publicClient.getBalance({ address: h.user() }),
      TKA: parseEther('1000'),
      TKB: parseEther('1000'),
      USDC: parseUnits('10000', 6),
      USDT: parseUnits('10000', 6),
      BAD: parseEther('1000'),
      ZERO: 0n,
      REV: 'reverted',
      ONE: 'malformed',
      TWO: 'malformed',
      NOCODE: 'malformed',
    })
    // The block, the reader (refused), Multicall3's code (once), one aggregate3, and the reverting token read again on its own.
    expect(requests).toEqual(['eth_blockNumber', 'eth_call', 'eth_getCode', 'eth_call', 'eth_call'])
    expect(h.server.service.count()).toBe(0)
  })

  test('without Multicall3, on a node that refuses state overrides: one eth_call per token and eth_getBalance for the coin, with the same answer', async () => {
    const { fixture } = h
    const tokens = await tokenList()
    const reader = await getTokenBalances(h.swapClient(), {
      publicClient: countingPublicClient(fixture).publicClient,
      account: h.user(),
      tokens,
      prices: false,
    })
    expect(reader.method).toBe('stateOverride')

    const without = countingPublicClient(fixture, { stateOverrides: 'refuse' })
    const plain = await getTokenBalances(h.swapClient(), {
      publicClient: without.publicClient,
      account: h.user(),
      tokens,
      prices: false,
      blockNumber: reader.blockNumber,
    })
    expect(plain.method).toBe('eth_call')
    // One per token but the coin, and the reader's (refused).
    expect(without.requests.filter((method) => method === 'eth_call')).toHaveLength(tokens.length - 1 + 1)
    expect(without.requests.filter((method) => method === 'eth_getBalance')).toHaveLength(1)
    expect(without.requests).toHaveLength(tokens.length + 3) // + eth_blockNumber, the reader, eth_getCode
    expect(plain.balances).toEqual(reader.balances)

    await installMulticall3(fixture)
    const withIt = countingPublicClient(fixture, { stateOverrides: 'refuse' })
    const batched = await getTokenBalances(h.swapClient(), {
      publicClient: withIt.publicClient,
      account: h.user(),
      tokens,
      prices: false,
      blockNumber: plain.blockNumber,
    })
    expect(batched.method).toBe('multicall3')
    expect(batched.balances).toEqual(plain.balances)
  })

  test('a node that ignores state overrides (the reader answers nothing): read another way, with the same answer; the reader is not asked again', async () => {
    const { fixture } = h
    const tokens = await tokenList()
    const expected = await getTokenBalances(h.swapClient(), {
      publicClient: countingPublicClient(fixture).publicClient,
      account: h.user(),
      tokens,
      prices: false,
    })
    await installMulticall3(fixture)
    const { publicClient, requests } = countingPublicClient(fixture, { stateOverrides: 'ignore' })
    const parameters = { publicClient, account: h.user(), tokens, prices: false as const }
    const first = await getTokenBalances(h.swapClient(), parameters)
    expect(first.method).toBe('multicall3')
    expect(first.balances).toEqual(expected.balances)
    // The reader's eth_call answered 0x (no code at its address): then Multicall3.
    expect(requests).toEqual(['eth_blockNumber', 'eth_call', 'eth_getCode', 'eth_call', 'eth_call'])
    requests.length = 0
    const second = await getTokenBalances(h.swapClient(), parameters)
    expect(second.balances).toEqual(expected.balances)
    expect(requests).toEqual(['eth_blockNumber', 'eth_call', 'eth_call']) // aggregate3, REV again
  })

  test("something else at Multicall3's address (code that reverts, or answers garbage), on a node that refuses state overrides: read token by token", async () => {
    const { fixture } = h
    const tokens = await tokenList()
    const expected = await getTokenBalances(h.swapClient(), {
      publicClient: countingPublicClient(fixture).publicClient,
      account: h.user(),
      tokens,
      prices: false,
    })
    for (const code of [misbehavingCode.reverts, misbehavingCode.twoWords, misbehavingCode.oneByte]) {
      await fixture.testClient.setCode({ address: multicall3Address, bytecode: code })
      const { publicClient, requests } = countingPublicClient(fixture, { stateOverrides: 'refuse' })
      const result = await getTokenBalances(h.swapClient(), {
        publicClient,
        account: h.user(),
        tokens,
        prices: false,
      })
      expect(result.method).toBe('multicall3')
      expect(result.balances).toEqual(expected.balances)
      // The block, the reader (refused), the code, the failed aggregate3, then each token on its own.
      expect(requests).toHaveLength(4 + tokens.length)
    }
  })

  for (const multicall3 of [true, false])
    for (const stateOverrides of ['honour', 'refuse'] as const)
      test(`a token whose balanceOf burns all the gas it is given is marked 'reverted'; the others come back (${multicall3 ? 'with' : 'without'} Multicall3, state overrides: ${stateOverrides})`, async () => {
        const { fixture } = h
        if (multicall3) await installMulticall3(fixture)
        const tokens = await tokenList()
        const burner = { symbol: 'BURN', address: await deployGasBurner(fixture), decimals: 18 }
        // 100 more tokens after it, each held: what is left of a batch's gas after the burner cannot read them all.
        const clones = await cloneTokens(fixture, {
          template: fixture.tokens.TKB.address, // TKA's first clone is ZERO's
          count: 100,
          holder: h.user(),
        })
        const list = [
          ...tokens.slice(0, 3),
          burner,
          ...tokens.slice(3),
          ...clones.map((address, index) => ({ address, symbol: `C${index}`, decimals: 18 })),
        ]
        // No retries: anvil answers an eth_call out of gas with -32603, which viem would send 3 more times.
        const { publicClient, requests } = countingPublicClient(fixture, { stateOverrides, retryCount: 0 })
        const result = await getTokenBalances(h.swapClient(), {
          publicClient,
          account: h.user(),
          tokens: list,
          prices: false,
        })
        expect(bySymbol(result.balances)).toEqual({
          ETH: await fixture.publicClient.getBalance({ address: h.user() }),
          TKA: parseEther('1000'),
          TKB: parseEther('1000'),
          USDC: parseUnits('10000', 6),
          USDT: parseUnits('10000', 6),
          BAD: parseEther('1000'),
          ZERO: 0n,
          REV: 'reverted',
          ONE: 'malformed',
          TWO: 'malformed',
          NOCODE: 'malformed',
          BURN: 'reverted',
          ...Object.fromEntries(clones.map((_, index) => [`C${index}`, 10n ** 18n])),
        })
        const calls = requests.filter((method) => method === 'eth_call').length
        if (stateOverrides === 'honour') {
          expect(result.method).toBe('stateOverride')
          expect(requests).toEqual(['eth_blockNumber', 'eth_call']) // the burner cost 200,000 gas, not a request
        } else if (multicall3) {
          expect(result.method).toBe('multicall3')
          // The reader (refused); aggregate3 ran out of gas as a whole: every token but the coin on its own.
          expect(calls).toBe(1 + 1 + list.length - 1)
        } else {
          expect(result.method).toBe('eth_call')
          expect(calls).toBe(1 + list.length - 1) // the reader (refused), then one per token but the coin
        }
      })

  test('the reader stops where the gas the node allows a call runs out, and is asked again for the rest', async () => {
    const { fixture } = h
    const tokens = await tokenList()
    const code = await fixture.publicClient.getCode({ address: await deployGasBurner(fixture) })
    const burners = []
    for (let index = 0; index < 4; index++)
      burners.push({
        symbol: `BURN${index}`,
        address: await deployCodeAt(fixture, `burner ${index}`, code as Hex),
        decimals: 18,
      })
    const list = [...burners, ...tokens]
    // A node that gives an eth_call at most 500,000 gas: room for two burners (200,000 each), not four.
    const { publicClient, requests } = countingPublicClient(fixture, { callGasCap: 500_000n })
    const result = await getTokenBalances(h.swapClient(), {
      publicClient,
      account: h.user(),
      tokens: list,
      prices: false,
    })
    expect(result.method).toBe('stateOverride')
    expect(bySymbol(result.balances)).toEqual({
      BURN0: 'reverted',
      BURN1: 'reverted',
      BURN2: 'reverted',
      BURN3: 'reverted',
      ETH: await fixture.publicClient.getBalance({ address: h.user() }),
      TKA: parseEther('1000'),
      TKB: parseEther('1000'),
      USDC: parseUnits('10000', 6),
      USDT: parseUnits('10000', 6),
      BAD: parseEther('1000'),
      ZERO: 0n,
      REV: 'reverted',
      ONE: 'malformed',
      TWO: 'malformed',
      NOCODE: 'malformed',
    })
    // Two burners, then (too little left for a third) the other two, then (too little left for another token) the rest.
    expect(requests).toEqual(['eth_blockNumber', 'eth_call', 'eth_call', 'eth_call'])
  })

  test("a node that fails the reader's eth_call (HTTP 503) fails the list, as any failing node does; nothing is remembered", async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    let busy = true
    const requests: string[] = []
    const publicClient = createPublicClient({
      chain: fixture.chain,
      transport: http(fixture.rpcUrl, {
        retryCount: 0,
        fetchFn: (input, init) => {
          const { method, params } = JSON.parse(String(init?.body)) as { method: string; params: unknown[] }
          requests.push(method)
          if (busy && method === 'eth_call' && params.length > 2)
            return Promise.resolve(new Response('busy', { status: 503 }))
          return fetch(input, init)
        },
      }),
    })
    const parameters = {
      publicClient,
      account: h.user(),
      tokens: [fixture.tokens.TKA.address],
      prices: false as const,
    }
    const error = await getTokenBalances(h.swapClient(), parameters).catch((caught: unknown) => caught)
    expect(error).toMatchObject({ name: 'CallExecutionError' })
    expect(
      (error as { walk: (fn: (cause: unknown) => boolean) => unknown }).walk(
        (cause) => (cause as { status?: unknown }).status === 503,
      ),
    ).toBeTruthy()
    expect(requests).toEqual(['eth_blockNumber', 'eth_call'])
    busy = false
    requests.length = 0
    const result = await getTokenBalances(h.swapClient(), parameters)
    expect(result.method).toBe('stateOverride')
    expect(requests).toEqual(['eth_blockNumber', 'eth_call'])
  })

  test('batchSize splits the calls: one eth_call of the reader per batch, or one aggregate3 per batch', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    const tokens = await tokenList() // 11 tokens, one of them reverting
    const reader = countingPublicClient(fixture)
    await getTokenBalances(h.swapClient(), {
      publicClient: reader.publicClient,
      account: h.user(),
      tokens,
      prices: false,
      batchSize: 4,
    })
    // 3 batches (4 + 4 + 3).
    expect(reader.requests.filter((method) => method === 'eth_call')).toHaveLength(3)

    const refused = countingPublicClient(fixture, { stateOverrides: 'refuse' })
    await getTokenBalances(h.swapClient(), {
      publicClient: refused.publicClient,
      account: h.user(),
      tokens,
      prices: false,
      batchSize: 4,
    })
    // The reader for each of the 3 batches (refused), 3 aggregate3 and the reverting token on its own.
    expect(refused.requests.filter((method) => method === 'eth_call')).toHaveLength(3 + 4)
  })

  test('eth_getCode is asked once per client and chain, and remembered, where the reader is refused; never where it runs', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    const { publicClient, requests } = countingPublicClient(fixture, { stateOverrides: 'refuse' })
    const parameters = {
      publicClient,
      account: h.user(),
      tokens: [fixture.tokens.TKA.address],
      prices: false as const,
    }
    await getTokenBalances(h.swapClient(), parameters)
    await getTokenBalances(h.swapClient(), parameters)
    expect(requests.filter((method) => method === 'eth_getCode')).toHaveLength(1)
    // The reader (refused) and getCode once; blockNumber and aggregate3 twice.
    expect(requests).toEqual([
      'eth_blockNumber',
      'eth_call',
      'eth_getCode',
      'eth_call',
      'eth_blockNumber',
      'eth_call',
    ])
    await expect(isMulticall3Deployed(publicClient, fixture.chain.id, multicall3Address)).resolves.toBe(true)

    const reader = countingPublicClient(fixture)
    await getTokenBalances(h.swapClient(), { ...parameters, publicClient: reader.publicClient })
    await getTokenBalances(h.swapClient(), { ...parameters, publicClient: reader.publicClient })
    expect(reader.requests).toEqual(['eth_blockNumber', 'eth_call', 'eth_blockNumber', 'eth_call'])
  })

  test('the service list by default; sorted as pickers sort; prices for held tokens only, at most maxPrices', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    // The user sends all their BAD away: BAD is listed and not held.
    await fixture.publicClient.waitForTransactionReceipt({
      hash: await fixture.userClient.writeContract({
        address: fixture.tokens.BAD.address,
        abi: testErc20Abi,
        functionName: 'transfer',
        args: [fixture.accounts.recipient.address, parseEther('1000')],
      }),
    })
    const { publicClient } = countingPublicClient(fixture)
    const result = await getTokenBalances(h.swapClient(), { publicClient, account: h.user() })
    // ETH ($30M) > USDC ($10 000) = USDT (by symbol) > TKA ($2 000) > TKB ($1 000); then BAD, not held.
    expect(result.balances.map((entry) => entry.token.symbol)).toEqual([
      'ETH',
      'USDC',
      'USDT',
      'TKA',
      'TKB',
      'BAD',
    ])
    expect(result.balances.map((entry) => entry.priceUsd)).toEqual([
      fixturePrices.ETH,
      1,
      1,
      2,
      1,
      undefined, // not held: never priced
    ])
    const tka = result.balances.find((entry) => entry.token.symbol === 'TKA')
    expect(tka?.valueUsd).toBe(2000)
    expect(h.server.service.count('/overview/tokens')).toBe(1)
    expect(h.server.service.count('/overview/token/price')).toBe(5)

    // A bound of 2: the first two held tokens of the list are priced; the others sort by symbol after them.
    h.server.service.clearLog()
    const bounded = await getTokenBalances(h.swapClient(), { publicClient, account: h.user(), maxPrices: 2 })
    expect(h.server.service.count('/overview/token/price')).toBe(2)
    expect(bounded.balances.map((entry) => [entry.token.symbol, entry.valueUsd !== undefined])).toEqual([
      ['ETH', true], // listed first, priced
      ['TKA', true], // listed second, priced
      ['TKB', false],
      ['USDC', false],
      ['USDT', false],
      ['BAD', false],
    ])

    // Prices already known are not requested; `false` requests none.
    h.server.service.clearLog()
    await getTokenBalances(h.swapClient(), {
      publicClient,
      account: h.user(),
      prices: { [fixture.tokens.ETH.address.toLowerCase()]: 2500 },
      maxPrices: 1,
    })
    expect(h.server.service.log.filter((entry) => entry.path === '/overview/token/price')).toHaveLength(1)
  })

  test('a price the service does not have leaves the token unvalued; the list stands', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    h.server.service.fail({
      status: 404,
      endpoint: '/overview/token/price',
      body: { detail: 'Token not found' },
    })
    const { publicClient } = countingPublicClient(fixture)
    const result = await getTokenBalances(h.swapClient(), { publicClient, account: h.user() })
    expect(result.balances.every((entry) => entry.priceUsd === undefined)).toBe(true)
    // Held tokens by symbol when no price is known.
    expect(result.balances.map((entry) => entry.token.symbol)).toEqual([
      'BAD',
      'ETH',
      'TKA',
      'TKB',
      'USDC',
      'USDT',
    ])
  })

  test('blockNumber: read at the block of a settled swap, never before it; a node behind it is a BlockNotReachedError', async () => {
    const { fixture } = h
    await installMulticall3(fixture)
    const receipt = await fixture.publicClient.waitForTransactionReceipt({
      hash: await fixture.userClient.writeContract({
        address: fixture.tokens.TKA.address,
        abi: testErc20Abi,
        functionName: 'transfer',
        args: [fixture.accounts.recipient.address, parseEther('400')],
      }),
    })
    const { publicClient, requests } = countingPublicClient(fixture)
    const tokens = [fixture.tokens.TKA.address]
    const after = await getTokenBalances(h.swapClient(), {
      publicClient,
      account: h.user(),
      tokens,
      prices: false,
      blockNumber: receipt.blockNumber,
    })
    expect(after.blockNumber).toBeGreaterThanOrEqual(receipt.blockNumber)
    expect(after.balances[0]?.balance).toBe(parseEther('600'))

    requests.length = 0
    const ahead = receipt.blockNumber + 10n
    const error = await getTokenBalances(h.swapClient(), {
      publicClient,
      account: h.user(),
      tokens,
      prices: false,
      blockNumber: ahead,
    }).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(BlockNotReachedError)
    expect(error).toMatchObject({ blockNumber: ahead, latest: receipt.blockNumber })
    expect(requests).toEqual(['eth_blockNumber']) // nothing read
  })

  test('malformed input is an InvalidParameterError naming it; nothing reaches the node or the service', async () => {
    const { fixture } = h
    const { publicClient, requests } = countingPublicClient(fixture)
    const valid = { publicClient, account: h.user() }
    const cases: [Record<string, unknown>, string][] = [
      [{ ...valid, account: '0x1234' }, 'account'],
      [{ ...valid, account: undefined }, 'account'],
      [{ ...valid, publicClient: {} }, 'publicClient'],
      [{ ...valid, tokens: 'USDC' }, 'tokens'],
      [{ ...valid, tokens: [fixture.tokens.TKA.address, '0xnope'] }, 'tokens[1]'],
      [{ ...valid, tokens: [{ symbol: 'X', address: '0x12' }] }, 'tokens[0].address'],
      [{ ...valid, chainId: fixture.chain.id + 1 }, 'chainId'],
      [{ ...valid, chainId: 0 }, 'chainId'],
      [{ ...valid, prices: { [fixture.tokens.TKA.address]: -1 } }, `prices[${fixture.tokens.TKA.address}]`],
      [{ ...valid, maxPrices: 1.5 }, 'maxPrices'],
      [{ ...valid, blockNumber: 5 }, 'blockNumber'],
      [{ ...valid, batchSize: 0 }, 'batchSize'],
    ]
    for (const [parameters, parameter] of cases) {
      const error = await getTokenBalances(h.swapClient(), parameters as never).catch(
        (caught: unknown) => caught,
      )
      expect(error, parameter).toBeInstanceOf(InvalidParameterError)
      expect((error as InvalidParameterError).parameter).toBe(parameter)
    }
    expect(requests).toEqual([])
    expect(h.server.service.count()).toBe(0)
  })

  test('an aborted call rejects with AbortError', async () => {
    const { fixture } = h
    const { publicClient } = countingPublicClient(fixture)
    const controller = new AbortController()
    const pending = getTokenBalances(
      h.swapClient(),
      { publicClient, account: h.user() },
      { signal: controller.signal },
    )
    controller.abort()
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
  })
})
