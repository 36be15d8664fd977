import type { StorybookConfig } from '@storybook/react-vite'

const config: StorybookConfig = {
  stories: ['../stories/**/*.mdx', '../stories/**/*.stories.@(ts|tsx)'],
  addons: ['@storybook/addon-docs', '@storybook/addon-vitest', 'msw-storybook-addon'],
  framework: {
    name: '@storybook/react-vite',
    // Storybook gets its own Vite config: the root one builds the library.
    options: { builder: { viteConfigPath: '.storybook/vite.config.ts' } },
  },
  // mockServiceWorker.js, which serves the embedded mock service in the browser.
  staticDirs: ['../public'],
  core: { disableTelemetry: true, disableWhatsNewNotifications: true },
}

export default config
