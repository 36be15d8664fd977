import { BaseError } from '../core/errors/base.js'

/** `SwapProviderNotFoundError`, discriminated by its `name`. */
export type SwapProviderNotFoundErrorType = SwapProviderNotFoundError & {
  name: 'SwapProviderNotFoundError'
}

/**
 * A hook of token-swap-hooks was used outside `<SwapProvider>`.
 *
 * @example
 * <SwapProvider baseUrl="https://swap.example.com">
 *   <App />
 * </SwapProvider>
 */
export class SwapProviderNotFoundError extends BaseError {
  override name = 'SwapProviderNotFoundError' as const

  constructor() {
    super('The hooks of token-swap-hooks must be used within <SwapProvider>.', {
      metaMessages: [
        'Wrap them in <SwapProvider baseUrl={url}> (or client={createSwapClient({ baseUrl })}).',
      ],
    })
  }
}
