// token-swap-hooks/mock/msw: MSW v2 handlers for the mock service (needs the optional peer msw).

export {
  type CreateSwapHandlersErrorType,
  type CreateSwapHandlersParameters,
  type CreateSwapHandlersReturnType,
  createSwapHandlers,
} from '../mock/createSwapHandlers.js'
