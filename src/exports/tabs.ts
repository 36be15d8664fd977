// token-swap-hooks/tabs: the tabs of one origin as one client of the service (BroadcastChannel and
// Web Locks): one rate-limit budget, one tab polling each quote, one tab resuming a swap. Opt-in:
// nothing of it is in the other entries.

export { type UseTabCoordinatorParameters, useTabCoordinator } from '../react/hooks/useTabCoordinator.js'
export {
  type CreateTabCoordinatorErrorType,
  type CreateTabCoordinatorParameters,
  type CreateTabCoordinatorReturnType,
  createTabCoordinator,
  type TabCoordinator,
} from '../tabs/createTabCoordinator.js'
