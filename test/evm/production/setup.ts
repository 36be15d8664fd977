import { afterAll } from 'vitest'
import { deploySwapGuard } from '../../../src/exports/guard.js'
import type { StartAnvilReturnType } from '../anvil.js'
import {
  createReferenceService,
  type ReferenceService,
  type ReferenceServiceOptions,
} from './referenceService.js'
import { type SetupUniswapParameters, setupUniswap, type UniswapDeployment } from './uniswap.js'

export type SetupProductionParameters = SetupUniswapParameters & {
  /** Deploy the library's SwapGuard at its address (`deploySwapGuard`). @default true */
  guard?: boolean | undefined
  /** The reference service's options besides the deployment. */
  service?: Omit<ReferenceServiceOptions, 'uniswap'> | undefined
}

/**
 * For one test file: anvil with Uniswap deployed (`setupUniswap`: once, each
 * test reverted to the deployed state), the SwapGuard deployed as anyone
 * would (`deploySwapGuard`), and the reference service listening on loopback
 * over those pools, stopped after the file.
 *
 * @example
 * const evm = setupProduction()
 * test('a route', async () => {
 *   const client = createSwapClient({ baseUrl: evm.service.url })
 *   const route = await getSwapRoute(client, { token0, token1, amountIn })
 * })
 */
export function setupProduction(parameters: SetupProductionParameters = {}): {
  readonly uniswap: UniswapDeployment
  readonly anvil: StartAnvilReturnType
  readonly service: ReferenceService
} {
  const { guard = true, service: serviceOptions, afterDeploy, ...uniswapParameters } = parameters
  let service: ReferenceService | undefined
  const evm = setupUniswap({
    ...uniswapParameters,
    async afterDeploy(uniswap) {
      if (guard) {
        const deployment = await deploySwapGuard({
          walletClient: uniswap.deployerClient,
          publicClient: uniswap.publicClient,
        })
        if (deployment.status !== 'deployed') throw new Error(`SwapGuard not deployed: ${deployment.status}`)
      }
      service = createReferenceService({ ...serviceOptions, uniswap })
      await service.start()
      await afterDeploy?.(uniswap)
    },
  })
  afterAll(async () => {
    await service?.stop()
  })
  return {
    get uniswap() {
      return evm.uniswap
    },
    get anvil() {
      return evm.anvil
    },
    get service() {
      if (!service) throw new Error('The reference service is not started yet: use it inside a test or hook.')
      return service
    },
  }
}
