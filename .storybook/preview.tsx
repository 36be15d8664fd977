import type { Preview } from '@storybook/react-vite'
import { mswLoader } from 'msw-storybook-addon/csf3'
import { SwapStoryProvider } from '../stories/support/SwapStoryProvider.js'
import { installStoryMocks, type MockServiceParameters } from '../stories/support/storyContext.js'

const preview: Preview = {
  loaders: [mswLoader()],
  beforeEach({ msw, parameters }) {
    installStoryMocks(msw, parameters as { mockService?: MockServiceParameters })
  },
  decorators: [
    (Story, context) => (
      <SwapStoryProvider key={context.id} {...(context.parameters.swapProvider ?? {})}>
        <Story />
      </SwapStoryProvider>
    ),
  ],
  parameters: {
    layout: 'padded',
    controls: { expanded: true },
    // Each story of a docs page in its own frame: each gets its own mock service and wallet.
    docs: { story: { inline: false, height: '420px' } },
  },
  tags: ['autodocs'],
}

export default preview
