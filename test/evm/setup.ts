import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
import { type StartAnvilParameters, type StartAnvilReturnType, startAnvil } from './anvil.js'
import { type DeploySwapFixtureParameters, deploySwapFixture, type SwapFixture } from './fixture.js'

export type SetupSwapFixtureParameters = Omit<DeploySwapFixtureParameters, 'rpcUrl' | 'chainId'> & {
  anvil?: StartAnvilParameters | undefined
}

/**
 * For one test file: starts anvil and deploys the swap fixture in `beforeAll`, stops anvil in
 * `afterAll`, and reverts every test's changes to the chain (an `evm_snapshot` taken before each
 * test, `evm_revert` after it), so each test starts from the freshly deployed state.
 *
 * @example
 * const evm = setupSwapFixture()
 * test('swap', async () => {
 *   const { userClient, router } = evm.fixture
 * })
 */
export function setupSwapFixture(parameters: SetupSwapFixtureParameters = {}): {
  readonly fixture: SwapFixture
  readonly anvil: StartAnvilReturnType
} {
  const { anvil: anvilParameters, ...fixtureParameters } = parameters
  let anvil: StartAnvilReturnType | undefined
  let fixture: SwapFixture | undefined
  let snapshotId: `0x${string}` | undefined

  beforeAll(async () => {
    anvil = await startAnvil(anvilParameters)
    fixture = await deploySwapFixture({ ...fixtureParameters, rpcUrl: anvil.rpcUrl, chainId: anvil.chainId })
  }, 30_000)
  afterAll(async () => {
    await anvil?.stop()
  })
  beforeEach(async () => {
    snapshotId = await fixture?.snapshot()
  })
  afterEach(async () => {
    if (fixture && snapshotId) await fixture.revert(snapshotId)
    snapshotId = undefined
  })

  return {
    get fixture() {
      if (!fixture) throw new Error('The swap fixture is not deployed yet: use it inside a test or hook.')
      return fixture
    },
    get anvil() {
      if (!anvil) throw new Error('anvil is not started yet: use it inside a test or hook.')
      return anvil
    },
  }
}
