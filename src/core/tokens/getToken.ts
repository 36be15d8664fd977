import {
  type Address,
  type Chain,
  getAddress,
  type Hex,
  hexToBigInt,
  hexToString,
  isAddress,
  type PublicClient,
  pad,
  slice,
  type Transport,
} from 'viem'
import { call } from 'viem/actions'
import { getTokens } from '../actions/getTokens.js'
import type { SwapClient } from '../client.js'
import { ensure } from '../errors/parameter.js'

/**
 * Runtime bytecode of `TokenInfoReader.sol` (beside this file), compiled with
 * solc 0.8.30, `viaIR`, optimizer on (1 run), EVM `paris`, no metadata
 * (`getToken.test.ts` recompiles it). Put at `tokenInfoReaderAddress` by a
 * state override, it reads a token's name, symbol, decimals and total supply
 * in one `eth_call`.
 */
export const tokenInfoReaderCode: Hex =
  '0x6080604052600035803b6000526020906000905b60048210601f57826000f35b909163ffffffff60e01b6f06fdde0395d89b41313ce56718160ddd8460030360051b1c60e01b1661080052600080600461080085620186a0fa3d908190610100831160a1575b6002038352602083015260005b610100811060915750816101409160006040600195013e019201906013565b6000838201604001526020016072565b6101009250606556'

/** Where the reader is placed: the last 20 bytes of keccak256("token-swap-hooks.token-info-reader"). */
export const tokenInfoReaderAddress: Address = '0xA90718E5054c3706a20b60Cf610f5A982fCCBA16'

export type GetTokenParameters = {
  /** Reads the token on chain (the user's `usePublicClient()`). */
  publicClient: PublicClient<Transport, Chain | undefined>
  /** The address as the user typed or pasted it (spaces around it are fine). */
  address: string
}

export type GetTokenReturnType = {
  address: Address
  /**
   * `'token'`: it answers `totalSupply()` as an ERC-20 does; `'not-a-token'`: a
   * contract that does not; `'no-contract'`: nothing is deployed there on this
   * chain (another chain's address, a wallet).
   */
  kind: 'token' | 'not-a-token' | 'no-contract'
  /** As the token answers them (`bytes32` ones decoded); `undefined` when it does not, or answers garbage. */
  name: string | undefined
  symbol: string | undefined
  /** `undefined` when the token has no `decimals()` (it is optional in ERC-20): amounts cannot be shown in units. */
  decimals: number | undefined
  /**
   * The service's word on it (`/overview/tokens`): `'listed'`, `'blacklisted'`,
   * `'unlisted'`, or `'unknown'` when its list could not be read.
   */
  listing: 'listed' | 'blacklisted' | 'unlisted' | 'unknown'
  /**
   * The "unknown token" a picker warns about: not a token, or a token the
   * service does not list (anyone can deploy a token named after another).
   */
  warning: 'not-a-token' | 'unlisted' | 'blacklisted' | undefined
}

/**
 * A token pasted by its address, as a picker needs it: its name, symbol and
 * decimals read on chain in one `eth_call` (a reader placed by a state
 * override; four plain calls on a node that refuses overrides), `bytes32`
 * names and symbols decoded, a contract that is not a token (or nothing at
 * the address) said so, and whether the service lists it, or blacklists it.
 * Text that is not an address is an `InvalidParameterError` naming
 * `address`, before any request.
 *
 * @example
 * import { getToken } from 'token-swap-hooks/core'
 *
 * const token = await getToken(client, { publicClient, address: pasted })
 * if (token.warning) showWarning(token.warning) // 'unlisted': anyone can name a token "USDC"
 */
export async function getToken(
  client: SwapClient,
  parameters: GetTokenParameters,
): Promise<GetTokenReturnType> {
  const text = typeof parameters?.address === 'string' ? parameters.address.trim() : parameters?.address
  ensure(
    typeof text === 'string' && isAddress(text, { strict: true }),
    'address',
    'must be a 0x address of 20 bytes (a mixed-case one with its checksum)',
    parameters?.address,
  )
  const address = getAddress(text)
  const [read, listing] = await Promise.all([
    readTokenInfo(parameters.publicClient, address),
    listingOf(client, address),
  ])
  const warning =
    read.kind !== 'token'
      ? 'not-a-token'
      : listing === 'blacklisted' || listing === 'unlisted'
        ? listing
        : undefined
  return { address, ...read, listing, warning }
}

type TokenInfo = Pick<GetTokenReturnType, 'kind' | 'name' | 'symbol' | 'decimals'>

/** What the service says of the token: listed, blacklisted, not listed, or unknown (its list unreadable). */
async function listingOf(client: SwapClient, address: Address): Promise<GetTokenReturnType['listing']> {
  try {
    const tokens = await getTokens(client, { filterByToken: [address], blacklist: true })
    const token = tokens.find((item) => item.address.toLowerCase() === address.toLowerCase())
    if (!token) return 'unlisted'
    return token.blacklisted ? 'blacklisted' : 'listed'
  } catch {
    return 'unknown'
  }
}

const selectors: Hex[] = ['0x06fdde03', '0x95d89b41', '0x313ce567', '0x18160ddd']

/** The reader's one call; on a node that ignores or refuses state overrides, one call per question. */
async function readTokenInfo(
  publicClient: GetTokenParameters['publicClient'],
  address: Address,
): Promise<TokenInfo> {
  const read = await call(publicClient, {
    to: tokenInfoReaderAddress,
    data: pad(address),
    stateOverride: [{ address: tokenInfoReaderAddress, code: tokenInfoReaderCode }],
  }).then(
    ({ data }) => data,
    () => undefined,
  )
  // 32 bytes of code size, then four answers of 320 bytes: the reader ran.
  if (read && (read.length - 2) / 2 === 32 + 4 * 320) {
    const answers = selectors.map((_, index) => {
      const at = 32 + index * 320
      const status = hexToBigInt(slice(read, at, at + 32))
      const size = Number(hexToBigInt(slice(read, at + 32, at + 64)))
      return status === 1n ? slice(read, at + 64, at + 64 + Math.min(size, 256)) : undefined
    })
    return infoOf(hexToBigInt(slice(read, 0, 32)) > 0n, answers)
  }
  const [code, ...answers] = await Promise.all([
    publicClient.getCode({ address }),
    ...selectors.map((data) =>
      call(publicClient, { to: address, data, gas: 100_000n }).then(
        (result) => result.data ?? '0x',
        () => undefined,
      ),
    ),
  ])
  return infoOf(!!code && code !== '0x', answers)
}

/**
 * What the four answers say: a token answers `totalSupply()` with one word;
 * its decimals are one word up to 255; its name and symbol an ABI string or
 * a `bytes32`, printable.
 *
 * @example
 * infoOf(true, [name, symbol, decimals, totalSupply]) // { kind: 'token', name: 'Maker', symbol: 'MKR', decimals: 18 }
 */
export function infoOf(
  hasCode: boolean,
  [name, symbol, decimals, totalSupply]: (Hex | undefined)[],
): TokenInfo {
  if (!hasCode) return { kind: 'no-contract', name: undefined, symbol: undefined, decimals: undefined }
  if (totalSupply?.length !== 66)
    return { kind: 'not-a-token', name: undefined, symbol: undefined, decimals: undefined }
  const places = decimals?.length === 66 ? hexToBigInt(decimals) : undefined
  return {
    kind: 'token',
    name: textOf(name),
    symbol: textOf(symbol),
    decimals: places !== undefined && places <= 255n ? Number(places) : undefined,
  }
}

/** An ABI string, or a `bytes32` up to its first zero byte; `undefined` for anything else, or unprintable text. */
function textOf(answer: Hex | undefined): string | undefined {
  if (!answer || answer.length < 66) return undefined
  let text: string
  if (answer.length === 66) text = hexToString(answer, { size: 32 }).replace(/\0+$/, '')
  else {
    if (hexToBigInt(slice(answer, 0, 32)) !== 32n) return undefined
    const length = Number(hexToBigInt(slice(answer, 32, 64)))
    if (length > (answer.length - 2) / 2 - 64) return undefined
    text = length ? hexToString(slice(answer, 64, 64 + length)) : ''
  }
  // Control characters, or bytes that are not UTF-8 (decoded as U+FFFD): garbage, not a name.
  const printable = [...text].every((char) => {
    const code = char.codePointAt(0) as number
    return code >= 0x20 && code !== 0x7f && code !== 0xfffd
  })
  return text && printable ? text : undefined
}
