// Where the real Chromium is, and how to start it here: Debian's, or CHROMIUM_PATH
// (npm cannot download browsers on these machines). Shared by the story tests and the screenshots.
import { accessSync, constants } from 'node:fs'

export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

/** Exits with a clear message when there is no Chromium to run. */
export function requireChromium() {
  try {
    accessSync(chromiumPath, constants.X_OK)
  } catch {
    console.error(
      [
        `No Chromium at ${chromiumPath}: the browser tests need a real Chromium, and npm does not download one here.`,
        'Install Debian’s:  sudo apt-get update && sudo apt-get install -y chromium',
        'or point CHROMIUM_PATH at another Chromium or Chrome binary, then run the command again.',
      ].join('\n'),
    )
    process.exit(1)
  }
}
