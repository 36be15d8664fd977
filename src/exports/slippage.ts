// token-swap-hooks/slippage: the library's default slippage, one per pair, and a suggestion from how quotes move.

export { defaultSlippage } from '../core/constants.js'
export { type SlippageSetting, slippageFor } from '../core/slippage/slippageFor.js'
export {
  type SuggestSlippageParameters,
  type SuggestSlippageReturnType,
  suggestSlippage,
  suggestSlippageWindow,
} from '../core/slippage/suggestSlippage.js'
export {
  type UseSuggestedSlippageParameters,
  type UseSuggestedSlippageReturnType,
  useSuggestedSlippage,
} from '../react/hooks/useSuggestedSlippage.js'
