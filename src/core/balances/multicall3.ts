import type { Address, Chain, Client, Transport } from 'viem'
import { getCode } from 'viem/actions'

/** Multicall3's address on every chain it was deployed to with its keyless transaction. */
export const multicall3Address: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** The two functions of Multicall3 the balance reader calls. */
export const multicall3Abi = [
  {
    type: 'function',
    name: 'aggregate3',
    stateMutability: 'payable',
    inputs: [
      {
        name: 'calls',
        type: 'tuple[]',
        components: [
          { name: 'target', type: 'address' },
          { name: 'allowFailure', type: 'bool' },
          { name: 'callData', type: 'bytes' },
        ],
      },
    ],
    outputs: [
      {
        name: 'returnData',
        type: 'tuple[]',
        components: [
          { name: 'success', type: 'bool' },
          { name: 'returnData', type: 'bytes' },
        ],
      },
    ],
  },
  {
    type: 'function',
    name: 'getEthBalance',
    stateMutability: 'view',
    inputs: [{ name: 'addr', type: 'address' }],
    outputs: [{ name: 'balance', type: 'uint256' }],
  },
] as const

/** Per public client and chain: whether Multicall3 has code there (a promise, so concurrent reads ask once). */
const deployed = new WeakMap<object, Map<string, Promise<boolean>>>()

/**
 * Where Multicall3 lives for the client's chain: the chain's own
 * `contracts.multicall3` when it names one (zkSync's differs), else the
 * canonical address.
 */
export function multicall3AddressOf(client: Client<Transport, Chain | undefined>): Address {
  return client.chain?.contracts?.multicall3?.address ?? multicall3Address
}

/**
 * Whether Multicall3 is deployed on the chain, asked with one `eth_getCode`
 * per public client, chain and address and remembered. A failed read is not
 * remembered (the next call asks again).
 *
 * @example
 * if (await isMulticall3Deployed(publicClient, 1)) console.log('Multicall3 is deployed on chain 1')
 */
export function isMulticall3Deployed(
  client: Client<Transport, Chain | undefined>,
  chainId: number,
  address: Address = multicall3AddressOf(client),
): Promise<boolean> {
  let perClient = deployed.get(client)
  if (!perClient) {
    perClient = new Map()
    deployed.set(client, perClient)
  }
  const key = `${chainId}:${address.toLowerCase()}`
  let known = perClient.get(key)
  if (!known) {
    const map = perClient
    known = getCode(client, { address }).then(
      (code) => code !== undefined && code !== '0x',
      (error: unknown) => {
        map.delete(key)
        throw error
      },
    )
    perClient.set(key, known)
  }
  return known
}
