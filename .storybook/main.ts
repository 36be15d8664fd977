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
  // No onboarding checklist ("Get started 39 %") in the sidebar or the menu: Storybook 10 shows
  // it in development unless these two flags are false (storybook's manager reads
  // FEATURES.sidebarOnboardingChecklist and FEATURES.menuOnboardingChecklist).
  features: { sidebarOnboardingChecklist: false, menuOnboardingChecklist: false },
}

export default config
