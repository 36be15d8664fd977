// token-swap-hooks/devtools: a panel for TanStack Devtools (rate limit, quotes, requests, pending
// swaps, executions). Kept out of every other entry: an app ships it only where it imports it.

export {
  SwapDevtoolsPanel,
  type SwapDevtoolsPanelProps,
} from '../react/devtools/SwapDevtoolsPanel.js'
export {
  type SwapDevtoolsPlugin,
  type SwapDevtoolsPluginOptions,
  swapDevtoolsPlugin,
} from '../react/devtools/swapDevtoolsPlugin.js'
