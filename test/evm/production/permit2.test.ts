import { afterAll, beforeAll, expect, test } from 'vitest'
import { type StartAnvilReturnType, startAnvil } from '../anvil.js'
import { jsonRpc } from '../rpc.js'
import { compilePermit2, deployPermit2, permit2Address } from './permit2.js'

let anvil: StartAnvilReturnType
beforeAll(async () => {
  anvil = await startAnvil()
}, 30_000)
afterAll(() => anvil?.stop())

test('Permit2 compiled from the source v4-periphery ships lands at the canonical address through the deterministic deployer: the published bytes', async () => {
  const request = jsonRpc(anvil.rpcUrl)
  const [from] = (await request('eth_accounts', [])) as `0x${string}`[]
  // CREATE2 with the canonical salt reaches the canonical address only with the canonical init code.
  expect(await deployPermit2(request, from as `0x${string}`)).toEqual({ method: 'create2' })
  // Its runtime code is the compiler's, with its two immutables (the cached chain id and domain) filled in.
  const code = (await request('eth_getCode', [permit2Address, 'latest'])) as `0x${string}`
  const { deployedBytecode } = await compilePermit2()
  expect(code.length).toBe(deployedBytecode.length)
  expect((code.length - 2) / 2).toBe(9152)
}, 120_000)
