import {
  type Address,
  type Chain,
  type Client,
  concat,
  type Hex,
  hexToBigInt,
  pad,
  slice,
  type Transport,
} from 'viem'

/**
 * Runtime bytecode of `TokenBalanceReader.sol` (beside this file), compiled
 * with solc 0.8.30, `viaIR`, optimizer on (1 run), EVM `paris`, no metadata:
 * `tokenBalanceReader.test.ts` recompiles the source and checks it is this
 * code. Put at `tokenBalanceReaderAddress` by a state override, it reads an
 * account's balance of many tokens in one `eth_call`, each `balanceOf` given
 * at most `balanceOfGasLimit`.
 */
export const tokenBalanceReaderCode: Hex =
  '0x6000356370a0823160e01b600052806004526080906020905b3682106028575b607f1983016080f35b909162035b605a1060a2576040601491843560601c60016000918073eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee14609957846024600060209381845262030d40fa156092573d602014608a575060035b82526020820152019201906018565b83519150607b565b506002607b565b5085319150607b565b91601f56'

/** Where the reader is placed: the last 20 bytes of keccak256("token-swap-hooks.token-balance-reader"). */
export const tokenBalanceReaderAddress: Address = '0x0F028625860858965e22E8D3494A6a875cEa1F7B'

/**
 * The most gas one token's `balanceOf` is given, by the reader and by the
 * `eth_call` of one token: a token that needs more (or burns whatever it is
 * given) is marked `'reverted'`. A plain ERC-20 needs about 3,000; a proxied
 * or rebasing one, tens of thousands.
 */
export const balanceOfGasLimit = 200_000n

/** What the reader answered for one token: its word, or why there is none. */
export type TokenBalanceReaderEntry = { balance: bigint } | { reason: 'reverted' | 'malformed' }

/**
 * The reader's calldata: the account as a 32-byte word, then each token's 20 bytes.
 *
 * @example
 * const { data } = await call(publicClient, {
 *   to: tokenBalanceReaderAddress,
 *   data: tokenBalanceReaderData(account, [usdc, weth]),
 *   stateOverride: [{ address: tokenBalanceReaderAddress, code: tokenBalanceReaderCode }],
 * })
 */
export function tokenBalanceReaderData(account: Address, tokens: readonly Address[]): Hex {
  return concat([pad(account), ...tokens])
}

/**
 * The reader's answer, one entry per token read (it may stop before the last
 * one: the caller asks again for the rest), or `undefined` when the answer is
 * not the reader's (a node that ignored the state override answers `0x` from
 * an address without code): the caller reads another way.
 *
 * @example
 * const entries = decodeTokenBalanceReader(data, tokens.length)
 * if (!entries) // the node did not run the reader: read with Multicall3 or token by token
 */
export function decodeTokenBalanceReader(
  data: Hex | undefined,
  asked: number,
): TokenBalanceReaderEntry[] | undefined {
  const bytes = data ? (data.length - 2) / 2 : 0
  if (bytes === 0 || bytes % 64 !== 0 || bytes / 64 > asked) return undefined
  const entries: TokenBalanceReaderEntry[] = []
  for (let offset = 0; offset < bytes; offset += 64) {
    const status = hexToBigInt(slice(data as Hex, offset, offset + 32))
    const word = hexToBigInt(slice(data as Hex, offset + 32, offset + 64))
    if (status === 1n) entries.push({ balance: word })
    else if (status === 2n && word === 0n) entries.push({ reason: 'reverted' })
    else if (status === 3n && word === 0n) entries.push({ reason: 'malformed' })
    else return undefined
  }
  return entries
}

/** Per public client and chain: `false` once the node has shown it does not run the reader. */
const runsReader = new WeakMap<object, Map<number, boolean>>()

/**
 * Whether the reader is worth trying on this client and chain (not known to fail there).
 *
 * @example
 * if (mayRunTokenBalanceReader(publicClient, chainId)) // one eth_call with the reader
 */
export function mayRunTokenBalanceReader(
  client: Client<Transport, Chain | undefined>,
  chainId: number,
): boolean {
  return runsReader.get(client)?.get(chainId) !== false
}

/**
 * Remembers, per client and chain, that the node does not run the reader (it
 * refused or ignored the state override): later reads go straight to
 * Multicall3 or to one `eth_call` per token.
 *
 * @example
 * if (!decodeTokenBalanceReader(data, tokens.length)) rememberNoTokenBalanceReader(publicClient, chainId)
 */
export function rememberNoTokenBalanceReader(
  client: Client<Transport, Chain | undefined>,
  chainId: number,
): void {
  let perClient = runsReader.get(client)
  if (!perClient) {
    perClient = new Map()
    runsReader.set(client, perClient)
  }
  perClient.set(chainId, false)
}
