import { BaseError } from './base.js'

/** `BlockNotReachedError` narrowed by its `name`, as a function's `…ErrorType` union lists it. */
export type BlockNotReachedErrorType = BlockNotReachedError & { name: 'BlockNotReachedError' }

/**
 * Balances were asked at `blockNumber` or later (the block of a settled swap),
 * and the node behind the public client has not reached it yet (a load-balanced
 * RPC answering from a node a block or two behind). Nothing is wrong: try again
 * in a moment; `useTokenBalances` retries it on its own.
 *
 * @example
 * if (error instanceof BlockNotReachedError) return <p>Waiting for block {String(error.blockNumber)}…</p>
 */
export class BlockNotReachedError extends BaseError {
  override name = 'BlockNotReachedError' as const
  /** The block the balances must reflect. */
  declare blockNumber: bigint
  /** The latest block the node reported. */
  declare latest: bigint

  constructor({ blockNumber, latest }: { blockNumber: bigint; latest: bigint }) {
    super(`The node is at block ${latest}, behind block ${blockNumber}.`, {
      metaMessages: ['Balances at that block are read once the node has it.'],
    })
    this.blockNumber = blockNumber
    this.latest = latest
  }
}
