import { readFileSync } from 'node:fs'
import type { Address, Hex } from 'viem'
import { describe, expect, test } from 'vitest'
import {
  noteLeftoverAllowance,
  SwapSimulationError,
  UnsafeSwapOutcomeError,
  UntrustedAddressError,
  WalletError,
} from '../errors/execute.js'
import { HttpError, NetworkError } from '../errors/request.js'
import { createFailureReport, type FailureReport } from './createFailureReport.js'

const router: Address = '0x00000000000000000000000000000000000000aa'
const token: Address = '0x00000000000000000000000000000000000000bb'
const owner: Address = '0x00000000000000000000000000000000000000cc'
const data: Hex = '0x08c379a0'
const now = Date.UTC(2026, 10, 27, 12)

/** A report as JSON text reads it back: every field survives JSON.stringify unchanged. */
const roundTrip = (report: FailureReport) => JSON.parse(JSON.stringify(report)) as FailureReport

test('the version a report names is package.json’s', () => {
  const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'))
  expect(createFailureReport(new Error('x')).library).toEqual({ name: 'token-swap-hooks', version })
})

describe('the fields of a report, per kind of error', () => {
  const step = { status: 'quoting', action: 'checking-allowance' }
  const untrusted = Object.assign(
    new UntrustedAddressError({
      address: router,
      role: 'transferAddress',
      reason: 'not trusted',
      chainId: 8453,
    }),
    { step },
  )
  const simulation = new SwapSimulationError({
    reason: 'RevertingRouter: swap disabled',
    data,
    cause: new Error('execution reverted\nmore lines'),
  })
  const leftover = noteLeftoverAllowance(new WalletError({ stage: 'swap', cause: new Error('node down') }), {
    chainId: 31337,
    token,
    owner,
    spender: router,
    amount: 10n ** 18n,
  })
  const unsafe = new UnsafeSwapOutcomeError({
    violations: [{ type: 'underpaid', token, amount: 90n, limit: 95n }],
    outcome: { amountIn: 100n, amountOut: 90n, method: 'eth_simulateV1', gasUsed: [21000n] },
    stage: 'simulation',
  })

  test.each([
    {
      kind: 'a request error',
      error: new HttpError({
        status: 502,
        url: 'https://swap.test/swap/info?token0=0x1',
        body: 'Bad gateway',
      }),
      expected: {
        chainId: null,
        requests: [
          {
            url: 'https://swap.test/swap/info?token0=0x1',
            endpoint: null,
            parameters: null,
            status: 502,
            body: 'Bad gateway',
            outcome: null,
            at: null,
          },
        ],
        revert: null,
        simulation: null,
        leftoverAllowance: null,
        error: {
          name: 'HttpError',
          code: 'HTTP',
          shortMessage: 'The swap service answered 502.',
          details: '',
          fields: { status: 502, url: 'https://swap.test/swap/info?token0=0x1', body: 'Bad gateway' },
          causes: [],
        },
      },
    },
    {
      kind: 'an untrusted address',
      error: untrusted,
      expected: {
        chainId: 8453,
        requests: [],
        revert: null,
        step,
        error: {
          name: 'UntrustedAddressError',
          code: 'UNTRUSTED_ADDRESS',
          fields: { address: router, role: 'transferAddress', reason: 'not trusted', chainId: 8453, step },
          causes: [],
        },
      },
    },
    {
      kind: 'a simulation that reverts, its reason decoded',
      error: simulation,
      expected: {
        revert: {
          error: 'SwapSimulationError',
          reason: 'RevertingRouter: swap disabled',
          data,
          stage: 'swap',
        },
        error: {
          code: 'SWAP_SIMULATION',
          shortMessage: 'The swap would revert: RevertingRouter: swap disabled.',
          details: 'execution reverted\nmore lines',
          causes: [{ name: 'Error', code: null, shortMessage: 'execution reverted' }],
        },
      },
    },
    {
      kind: 'an error with a leftover allowance',
      error: leftover,
      expected: {
        chainId: 31337,
        leftoverAllowance: { chainId: 31337, token, owner, spender: router, amount: '1000000000000000000' },
        error: {
          name: 'WalletError',
          code: 'WALLET',
          fields: expect.objectContaining({
            stage: 'swap',
            leftoverAllowance: expect.objectContaining({ amount: '1000000000000000000' }),
          }),
          causes: [{ name: 'Error', code: null, shortMessage: 'node down' }],
        },
      },
    },
    {
      kind: 'an unsafe simulated outcome',
      error: unsafe,
      expected: {
        simulation: {
          outcome: { amountIn: '100', amountOut: '90', method: 'eth_simulateV1', gasUsed: ['21000'] },
          violations: [`underpaid: 90 of ${token} (limit 95)`],
        },
        revert: null,
      },
    },
  ])('$kind', ({ error, expected }) => {
    const report = createFailureReport(error, { now })
    expect(roundTrip(report)).toEqual(report)
    expect(report).toMatchObject({ schemaVersion: 1, createdAt: '2026-11-27T12:00:00.000Z', ...expected })
  })
})

test('the context adds what the error does not carry, and the redactor hides secrets in every string and key', () => {
  const redact = (text: string) => text.replaceAll('s3cret', '***')
  const error = new NetworkError({
    url: 'https://swap.test/swap/info?key=***',
    cause: new TypeError('fetch failed'),
  })
  const report = createFailureReport(error, {
    client: { redact },
    chainId: 1,
    requests: [
      {
        endpoint: 'swapRoute',
        parameters: { amountIn: 5n, 's3cret-key': 's3cret' },
        outcome: 'succeeded',
        at: now,
      },
    ],
    step: {
      status: 'swapping',
      action: 'simulating',
      swapInfo: { estimateAmount: 7n },
      simulated: { amountIn: 5n, amountOut: 7n, method: 'eth_call' },
    },
    journal: [{ step: 'swap', event: 'sending', at: now }],
    capabilities: { atomic: { status: 'supported' } },
    now,
  })
  expect(roundTrip(report)).toEqual(report)
  expect(report).toMatchObject({
    chainId: 1,
    requests: [
      {
        endpoint: 'swapRoute',
        parameters: { amountIn: '5', '***-key': '***' },
        at: '2026-11-27T12:00:00.000Z',
      },
      { url: 'https://swap.test/swap/info?key=***', status: null },
    ],
    responses: { swapInfo: { estimateAmount: '7' } },
    simulation: { outcome: { amountIn: '5', amountOut: '7', method: 'eth_call' }, violations: [] },
    step: { status: 'swapping', action: 'simulating' },
    journal: [{ step: 'swap', event: 'sending', at: now }],
    capabilities: { atomic: { status: 'supported' } },
    error: { name: 'NetworkError', causes: [{ name: 'TypeError', shortMessage: 'fetch failed' }] },
  })
  expect(JSON.stringify(report)).not.toContain('s3cret')
})

test('a value that JSON cannot hold: a cycle, functions, Infinity, a thrown string', () => {
  const cyclic: Record<string, unknown> = { n: Infinity, f: () => 1 }
  cyclic.self = cyclic
  const report = createFailureReport('no route', { swapInfo: cyclic })
  expect(report.responses.swapInfo).toEqual({ n: 'Infinity', self: '…' })
  expect(report.error).toMatchObject({ name: 'string', code: null, shortMessage: 'no route', fields: {} })
})
