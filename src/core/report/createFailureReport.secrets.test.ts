/**
 * No configured secret survives a failure report: a client with an Authorization header, an API-key header
 * and a key in its base URL's query makes a real failing request and a real failing swap against the mock
 * service on loopback (anvil behind it); the reports, built with the requests as the service logged them
 * (the query key among them) and the service echoing the secrets in its answers, hold none of them.
 */
import { parseEther } from 'viem'
import { expect, test } from 'vitest'
import { setupSwapHarness } from '../../../test/evm/swapHarness.js'
import type { MockService } from '../../mock/types.js'
import { getSwapInfo } from '../actions/getSwapInfo.js'
import { createSwapClient } from '../client.js'
import { SwapSimulationError } from '../errors/execute.js'
import { HttpError } from '../errors/request.js'
import { executeSwap } from '../execute/executeSwap.js'
import type { ExecuteSwapStep } from '../execute/types.js'
import { createFailureReport, type FailureReportRequestInput } from './createFailureReport.js'

const h = setupSwapHarness()
const bearer = 'SECRET-bearer-7f3a9c2e51d4'
const apiKey = 'KEY-api-4b8d1e6f90a2'
const queryKey = 'QKEY-tenant-2c5e8a1b37f6'
const secrets = [bearer, apiKey, queryKey]

const secretClient = (baseUrl: string) =>
  createSwapClient({
    baseUrl: `${baseUrl}?key=${queryKey}`,
    headers: { Authorization: `Bearer ${bearer}`, 'x-api-key': apiKey },
    rateLimit: false,
  })

/** The requests as the service logged them: their path and query as sent, the key among them. */
const logged = (service: MockService, baseUrl: string): FailureReportRequestInput[] =>
  service.log.map(({ path, query, status, time }) => ({
    url: `${baseUrl}${path}?${new URLSearchParams(query)}`,
    status,
    at: time,
  }))

const expectNoSecret = (text: string) => {
  for (const secret of secrets) expect(text).not.toContain(secret)
  // Nor their URL-encoded spellings (the query key is plain, but a header's space is not).
  expect(text).not.toContain(encodeURIComponent(`Bearer ${bearer}`))
}

test('a failing request: its error, the logged requests and an echoed body hold no secret', async () => {
  const client = secretClient(h.server.url)
  h.server.service.reset()
  h.server.service.fail({
    status: 401,
    endpoint: '/swap/info',
    times: 1,
    body: { detail: `bad credentials: Bearer ${bearer} / ${apiKey} / ${queryKey}` },
  })
  const error = await getSwapInfo(client, {
    token0: h.address('TKA'),
    token1: h.address('USDC'),
    amountIn: parseEther('1'),
    to: h.fixture.accounts.user.address,
  }).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(HttpError)

  const requests = logged(h.server.service, h.server.url)
  // The log holds the secret (the test would prove nothing otherwise).
  expect(JSON.stringify(requests)).toContain(queryKey)
  const report = createFailureReport(error, { client, requests, chainId: h.fixture.chain.id })
  const text = JSON.stringify(report)
  expectNoSecret(text)
  expect(report.error).toMatchObject({ name: 'HttpError', code: 'HTTP', fields: { status: 401 } })
  expect(report.error.details).toBe('bad credentials: *** / *** / ***')
  expect(report.requests).toContainEqual(
    expect.objectContaining({ url: expect.stringContaining('/swap/info?key=***'), status: 401 }),
  )
})

test('a failing swap (a simulation that reverts): the report holds the decoded revert, the quote and no secret', async () => {
  const other = await h.otherServer({ router: h.fixture.revertingRouter })
  try {
    const client = secretClient(other.client.baseUrl)
    const steps: ExecuteSwapStep[] = []
    const error = await executeSwap(client, {
      walletClient: h.wallet().walletClient,
      publicClient: h.fixture.publicClient,
      token0: h.address('ETH'),
      token1: h.address('USDC'),
      amountIn: parseEther('1'),
      minAmountOut: 1n,
      trustedAddresses: { [h.fixture.chain.id]: [h.fixture.revertingRouter] },
      storage: false,
      onStep: (step) => steps.push(step),
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SwapSimulationError)

    const report = createFailureReport(error, {
      client,
      chainId: h.fixture.chain.id,
      step: steps.at(-1),
      requests: [{ url: `${client.baseUrl}/swap/info?key=${queryKey}`, outcome: 'succeeded' }],
    })
    expectNoSecret(JSON.stringify(report))
    expect(report.chainId).toBe(h.fixture.chain.id)
    expect(report.revert).toMatchObject({
      error: 'SwapSimulationError',
      reason: 'RevertingRouter: swap disabled',
    })
    expect(report.responses.swapInfo).toMatchObject({ transferAddress: h.fixture.revertingRouter })
    expect(report.requests[0]?.url).toBe(`${client.baseUrl}/swap/info?key=***`)
    expect(report.error.fields.step).toMatchObject({ action: 'simulating' })
  } finally {
    await other.stop()
  }
})
