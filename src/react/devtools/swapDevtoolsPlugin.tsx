'use client'

import type { ReactElement } from 'react'
import { SwapDevtoolsPanel, type SwapDevtoolsPanelProps } from './SwapDevtoolsPanel.js'

/** The options of `swapDevtoolsPlugin`: its id, tab title, whether it opens first, the panel's refresh. */
export type SwapDevtoolsPluginOptions = {
  /** The plugin's id in the devtools (its open state is kept under it). Default `'token-swap-hooks'`. */
  id?: string | undefined
  /** The tab's title. Default `'Token swap'`. */
  name?: string | undefined
  /** Open this panel when no other panel is open. Default `false`. */
  defaultOpen?: boolean | undefined
} & Pick<SwapDevtoolsPanelProps, 'refreshMs'>

/**
 * A TanStack Devtools plugin (`@tanstack/react-devtools`): what its `plugins`
 * prop takes. `render` is called with the panel's element and the devtools'
 * props (`theme`), and returns the panel.
 */
export type SwapDevtoolsPlugin = {
  id: string
  name: string
  defaultOpen: boolean
  render: (element: HTMLElement, props?: { theme?: 'light' | 'dark' | undefined } | undefined) => ReactElement
}

/**
 * The token-swap-hooks panel as a TanStack Devtools plugin. Give it to
 * `<TanStackDevtools plugins={[swapDevtoolsPlugin()]} />` rendered inside your
 * `<SwapProvider>` (the devtools render their plugins in a portal, so the panel
 * reads the provider's client, QueryClient and storage).
 *
 * @example
 * import { TanStackDevtools } from '@tanstack/react-devtools'
 * import { swapDevtoolsPlugin } from 'token-swap-hooks/devtools'
 *
 * <SwapProvider baseUrl="https://swap.example.com">
 *   <App />
 *   <TanStackDevtools plugins={[swapDevtoolsPlugin()]} />
 * </SwapProvider>
 */
export function swapDevtoolsPlugin(options: SwapDevtoolsPluginOptions = {}): SwapDevtoolsPlugin {
  const { id = 'token-swap-hooks', name = 'Token swap', defaultOpen = false, refreshMs } = options
  return {
    id,
    name,
    defaultOpen,
    render: (_element, props) => <SwapDevtoolsPanel theme={props?.theme} refreshMs={refreshMs} />,
  }
}
